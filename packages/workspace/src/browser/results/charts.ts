import { BarController, BarElement, CategoryScale, Chart, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend } from 'chart.js';

/*
 * The results screen's charts (chart.js, for time series: docs/decisions.md, Workspace), in their own chunk: the
 * screen imports this module only when a chart is drawn, so neither the shell nor the table pays for it. Every
 * chart is drawn beside a table of the same numbers (results-summary.ts), which is its text alternative.
 */
Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend);

export interface Series {
  label: string;
  values: number[];
}

/** Colours read from the element's custom properties, so charts follow the workspace's theme and dark mode. */
function palette(el: Element) {
  const s = getComputedStyle(el);
  const v = (name: string, fallback: string) => s.getPropertyValue(name).trim() || fallback;
  return { primary: v('--_primary', '#4f46e5'), muted: v('--_muted', '#52525b'), border: v('--_border', '#d4d4d8'), text: v('--_text', '#18181b') };
}

/** Draws (or redraws) a bar or line chart in `canvas`; returns the chart so the caller can destroy it. */
export function drawChart(canvas: HTMLCanvasElement, kind: 'bar' | 'line' | 'hbar', labels: string[], series: Series[]): Chart {
  Chart.getChart(canvas)?.destroy();
  const c = palette(canvas);
  const colours = [c.primary, c.muted];
  return new Chart(canvas, {
    type: kind === 'line' ? 'line' : 'bar',
    data: {
      labels,
      datasets: series.map((s, i) => ({
        label: s.label,
        data: s.values,
        backgroundColor: colours[i % colours.length],
        borderColor: colours[i % colours.length],
        pointRadius: labels.length > 60 ? 0 : 2,
        maxBarThickness: 48,
      })),
    },
    options: {
      indexAxis: kind === 'hbar' ? 'y' : 'x',
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { display: series.length > 1, labels: { color: c.text } } },
      scales: {
        x: { ticks: { color: c.muted, maxRotation: 0, autoSkip: true, ...(kind === 'hbar' ? { precision: 0 } : {}) }, grid: { color: c.border }, beginAtZero: kind === 'hbar' },
        y: { ticks: { color: c.muted, ...(kind === 'hbar' ? {} : { precision: 0 }) }, grid: { color: c.border }, beginAtZero: kind !== 'hbar' },
      },
    },
  });
}
