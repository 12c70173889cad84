// JSON-compatibility checks for what a classifier sends to a model. JSON.stringify would
// silently drop or change what these reject (NaN, undefined, Dates, Maps, array holes) or throw
// on cycles, so the model would judge something other than what the caller passed.

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** True when `value` survives a JSON round trip unchanged. Shared non-cyclic references are fine. */
export function isJsonCompatible(value: unknown, ancestors: Set<object> = new Set()): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object') return false;
  if (ancestors.has(value)) return false;
  ancestors.add(value);
  let compatible: boolean;
  if (Array.isArray(value)) {
    compatible = true;
    // Indexed rather than every(): every() skips holes, which JSON turns into null.
    for (let index = 0; index < value.length && compatible; index++) {
      compatible = index in value && isJsonCompatible(value[index], ancestors);
    }
  } else {
    compatible = isPlainObject(value) && Object.values(value).every((item) => isJsonCompatible(item, ancestors));
  }
  ancestors.delete(value);
  return compatible;
}
