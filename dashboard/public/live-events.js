// The page's live feed: one snapshot, then events over Server-Sent Events (EventSource resumes
// with Last-Event-ID after a disconnect; the server answers with what was missed or a new
// snapshot). Each event updates the page's state (page-state.js) and asks for a redraw, which
// app.js coalesces so a busy topic does not redraw per record. What the page keeps is bounded.
import { loadBuckets, setSeriesTally, setSkipTally } from './aggregate-view.js';
import { $ } from './dom.js';
import { addAgreement } from './feedback-view.js';
import { page } from './page-state.js';
import { addThread } from './thread-view.js';

const MAX_RECORDS = 1000;
const MAX_DISAGREEMENTS = 1000;
const MAX_THREADS = 1000;

function applySnapshot(snapshot) {
  page.config = { windowMs: snapshot.windowMs, bucketMs: snapshot.bucketMs, binEdges: snapshot.binEdges, traceLinks: snapshot.traceLinks };
  page.serverOffset = snapshot.now - Date.now();
  loadBuckets(page.store, snapshot.buckets, snapshot.binEdges.length + 1);
  page.records = new Map(snapshot.recent.map((summary) => [summary.scoreId, summary]));
  page.agreements = snapshot.agreements;
  page.threads = new Map([...snapshot.threads].reverse().map((thread) => [thread.key, thread]));
  page.counts = snapshot.counts;
  page.live = 0;
}

function addRecord({ summary, start, tally, thread }) {
  setSeriesTally(page.store, start, tally);
  if (thread !== undefined) addThread(page.threads, thread, MAX_THREADS);
  page.records.delete(summary.scoreId);
  page.records.set(summary.scoreId, summary);
  while (page.records.size > MAX_RECORDS) page.records.delete(page.records.keys().next().value);
  page.live += 1;
}

/** `scheduleRender(delay)`: a redraw after `delay` ms (app.js); `openPairFromUrl`: the disagreement the URL names, once the first snapshot brought it. */
export function connectLiveEvents({ scheduleRender, openPairFromUrl }) {
  const source = new EventSource('/api/events');
  const connection = $('#connection');
  source.addEventListener('open', () => {
    connection.dataset.state = 'live';
    connection.textContent = 'live';
  });
  source.addEventListener('error', () => {
    connection.dataset.state = 'reconnecting';
    connection.textContent = 'reconnecting…';
  });
  let first = true;
  source.addEventListener('snapshot', (event) => {
    const snapshot = JSON.parse(event.data);
    applySnapshot(snapshot);
    connection.dataset.epoch = snapshot.epoch;
    scheduleRender(0);
    if (first && page.filters.pair) openPairFromUrl();
    first = false;
  });
  source.addEventListener('record', (event) => {
    addRecord(JSON.parse(event.data));
    scheduleRender();
  });
  source.addEventListener('decision', (event) => {
    const data = JSON.parse(event.data);
    setSkipTally(page.store, data.start, data.tally);
    if (data.thread !== undefined) addThread(page.threads, data.thread, MAX_THREADS);
    scheduleRender();
  });
  // A thread's latest score from the latest-score view (older than the look-back, or ahead of its results record).
  source.addEventListener('thread', (event) => {
    addThread(page.threads, JSON.parse(event.data).thread, MAX_THREADS);
    scheduleRender();
  });
  source.addEventListener('agreement', (event) => {
    addAgreement(page.agreements, JSON.parse(event.data), MAX_DISAGREEMENTS);
    scheduleRender();
  });
}
