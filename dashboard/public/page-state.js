// The page's state, shared by the modules that feed it (live-events.js) and those that draw from
// it (app.js and the parts it calls): the server's config and clock offset, the buckets, the
// recent records, agreements and threads, the filters (kept in the URL), and the rows shown.
import { createBucketStore } from './aggregate-view.js';
import { filtersFromSearch } from './filters.js';

export const page = {
  config: undefined,
  serverOffset: 0,
  store: createBucketStore(),
  records: new Map(),
  agreements: { state: 'off', windows: [], disagreements: [] },
  threads: new Map(),
  counts: undefined,
  live: 0,
  filters: filtersFromSearch(window.location.search),
  rows: [],
  renderTimer: undefined,
};

/** The server's time: the page's clock, corrected by the offset the last snapshot measured. */
export const now = () => Date.now() + page.serverOffset;
