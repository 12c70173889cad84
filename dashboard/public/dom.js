// Building the page's elements. Every string from a record goes in as a text node (or through
// textContent), never as HTML: no innerHTML anywhere in the page. Links accept only http(s) URLs.

/** The page's element that `selector` finds first (its ids are unique). */
export const $ = (selector) => document.querySelector(selector);

/** An element with attributes and children; strings become text nodes. */
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'className') element.className = value;
    else if (name === 'dataset') {
      // An undefined entry is left out, as an undefined attribute is (not written as "undefined").
      for (const [key, entry] of Object.entries(value)) if (entry !== undefined) element.dataset[key] = entry;
    }
    else if (name === 'href') {
      const safe = safeHttpUrl(value);
      if (safe !== undefined) element.setAttribute('href', safe);
    } else if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else if (child instanceof Node) element.append(child);
    else element.append(document.createTextNode(String(child)));
  }
}

/** The URL when it is http or https, else undefined (a `javascript:` link never reaches the page). */
export function safeHttpUrl(value) {
  try {
    const url = new URL(String(value), window.location.href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function clear(element) {
  element.replaceChildren();
}

/** Any JSON value as indented text, for <pre> blocks. */
export function jsonText(value) {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

export function formatTime(epochMs) {
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().replace('T', ' ').slice(0, 19);
}

export function formatScore(score) {
  return typeof score === 'number' ? (Math.round(score * 1000) / 1000).toString() : '';
}
