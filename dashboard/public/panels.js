// The page's panels beyond the scorer cards and the records table, each in a file of its own:
// `{ id, view, mount(host), render(context) }`. `view` names the view (scores, compare, feedback)
// whose panel host the panel is mounted in; `render` is called on every redraw of that view with
// the page's state (app.js: panelContext). A new panel is a new file and a line here.
import { comparePanel } from './compare-panel.js';
import { feedbackPanel } from './feedback-panel.js';
import { overviewPanel } from './overview-panel.js';

export const panels = [overviewPanel, comparePanel, feedbackPanel];
