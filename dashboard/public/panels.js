// The page's panels, each in a file of its own, in the order they appear in their view:
// `{ id, view, mount(host), render(context) }`. `view` names the view (scores, compare, feedback, threads)
// whose panel host the panel is mounted in; `render` is called on every redraw of that view with
// the page's state (app.js: panelContext). A new panel is a new file and a line here.
import { alertsPanel } from './alerts-panel.js';
import { comparePanel } from './compare-panel.js';
import { feedbackPanel } from './feedback-panel.js';
import { overviewPanel } from './overview-panel.js';
import { scorerCardsPanel } from './scorer-cards.js';
import { spendPanel } from './spend-panel.js';
import { threadsPanel } from './threads-panel.js';

export const panels = [overviewPanel, alertsPanel, spendPanel, scorerCardsPanel, comparePanel, feedbackPanel, threadsPanel];
