// The three charts of a scorer's card, drawn with uPlot (served from node_modules): mean score
// over time, the score distribution, and counts by status over time. Only fixed labels go into
// uPlot; the scorer's name is written by the page as text. Selecting a span on a time chart calls
// `onSelectTime(fromMs, toMs)`, which the page turns into the time-range filter. A time chart's x
// axis spans the view's window (view.xRange), never what uPlot would guess from the data: one
// point alone made it guess years. The drawn range is written to the chart's element
// (data-x-min, data-x-max, epoch ms), for the tests and anyone reading the page.
import uPlot from '/vendor/uPlot.esm.js';

const WIDTH = 360;
const HEIGHT = 170;

function binLabel(binEdges, bin) {
  if (bin === 0) return '<0';
  if (bin === binEdges.length) return '>1';
  return `${binEdges[bin - 1]}`;
}

function selectHook(onSelectTime) {
  return (chart) => {
    if (chart.select.width < 2) return;
    const from = chart.posToVal(chart.select.left, 'x');
    const to = chart.posToVal(chart.select.left + chart.select.width, 'x');
    chart.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
    onSelectTime(Math.round(from * 1000), Math.round(to * 1000));
  };
}

/** Writes the x range uPlot drew to the chart's element. */
function drawnRange(target) {
  return (chart) => {
    target.dataset.xMin = String(Math.round(chart.scales.x.min * 1000));
    target.dataset.xMax = String(Math.round(chart.scales.x.max * 1000));
  };
}

export function timeChart(target, { title, series, onSelectTime, yRange, width = WIDTH, height = HEIGHT }) {
  const holder = { range: [0, 1] };
  const chart = new uPlot(
    {
      title,
      width,
      height,
      cursor: { drag: { x: true, y: false, setScale: false } },
      scales: { x: { time: true, range: () => holder.range }, ...(yRange ? { y: { range: yRange } } : {}) },
      series: [{}, ...series],
      axes: [{}, { size: 40 }],
      hooks: { setSelect: onSelectTime ? [selectHook(onSelectTime)] : [], draw: [drawnRange(target)] },
      legend: { show: true },
    },
    [[]],
    target,
  );
  return {
    chart,
    /** Draws `data` over the x range [min, max] (seconds). */
    setData(data, range) {
      holder.range = range;
      chart.setData(data);
    },
    destroy: () => chart.destroy(),
  };
}

export function createScorerCharts(container, binEdges, onSelectTime) {
  const meanTarget = container.querySelector('[data-chart="mean"]');
  const distributionTarget = container.querySelector('[data-chart="distribution"]');
  const statusTarget = container.querySelector('[data-chart="status"]');
  const mean = timeChart(meanTarget, {
    title: 'mean score',
    series: [{ label: 'mean', stroke: '#3056d3', width: 2, spanGaps: false, points: { show: true, size: 4 } }],
    onSelectTime,
    yRange: (_chart, min, max) => [Math.min(0, min ?? 0), Math.max(1, max ?? 1)],
  });
  const status = timeChart(statusTarget, {
    title: 'records by status',
    series: [
      { label: 'scored', stroke: '#2e8b57', width: 1.5 },
      { label: 'not scorable', stroke: '#8a8a8a', width: 1.5, dash: [4, 3] },
      { label: 'failed', stroke: '#c62828', width: 1.5 },
    ],
    onSelectTime,
  });
  const bars = uPlot.paths.bars({ size: [0.8, 40] });
  const distribution = new uPlot(
    {
      title: 'score distribution',
      width: WIDTH,
      height: HEIGHT,
      scales: { x: { time: false, range: [-0.5, binEdges.length + 0.5] }, y: { range: (_chart, _min, max) => [0, Math.max(1, max ?? 1)] } },
      series: [{ label: 'from' , value: (_chart, value) => (value === null ? '' : binLabel(binEdges, value)) }, { label: 'scored', fill: 'rgba(48, 86, 211, 0.45)', stroke: '#3056d3', paths: bars, points: { show: false } }],
      axes: [{ values: (_chart, ticks) => ticks.map((tick) => (Number.isInteger(tick) ? binLabel(binEdges, tick) : '')), splits: () => binEdges.map((_edge, index) => index).concat(binEdges.length) }, { size: 40 }],
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
    },
    [[]],
    distributionTarget,
  );
  return {
    update(view) {
      mean.setData([view.x, view.mean], view.xRange);
      status.setData([view.x, view.count, view.notScorable, view.failed], view.xRange);
      distribution.setData([view.distribution.map((_count, bin) => bin), view.distribution]);
      meanTarget.dataset.points = String(view.mean.filter((value) => value !== null).length);
      meanTarget.dataset.buckets = String(view.x.length);
      distributionTarget.dataset.total = String(view.distribution.reduce((total, count) => total + count, 0));
      statusTarget.dataset.total = String(view.count.concat(view.notScorable, view.failed).reduce((total, count) => total + count, 0));
    },
    destroy() {
      mean.destroy();
      status.destroy();
      distribution.destroy();
    },
  };
}
