/**
 * The public page's HTML: the pool's figures, how to connect, its recent blocks and payouts, and one
 * address's balance, window and workers when asked for. Plain server-rendered HTML with no script, so
 * that its Content-Security-Policy can forbid scripts altogether; every value from the ledger, the
 * settings or the request is escaped.
 */
import type { StoredBlock } from "../../store/poolnode-ledger.ts";
import { coinsOf } from "../amounts.ts";
import type { PoolPortView } from "../service.ts";
import type { AddressView, PoolStatsView } from "../views.ts";

export interface PageView {
  title: string;
  notice: string;
  coin: string;
  running: boolean;
  /** the host name the visitor reached the page at: miners reach the stratum ports there too */
  host: string;
  ports: PoolPortView[];
  fee: number;
  pplnsWindow: number;
  payoutThreshold: number;
  stats: PoolStatsView;
  blocks: StoredBlock[];
  payouts: { created_at: number; txid: string | null; total: number; state: string }[];
  /** the address asked for, with its view or why there is none */
  lookup: { address: string; view: AddressView | null; error: string | null } | null;
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

const UNITS = ["H/s", "kH/s", "MH/s", "GH/s", "TH/s", "PH/s", "EH/s"];
export function formatHashrate(h: number): string {
  let i = 0;
  while (h >= 1000 && i < UNITS.length - 1) {
    h /= 1000;
    i++;
  }
  return `${h.toFixed(h < 10 ? 2 : 1)} ${UNITS[i]}`;
}

const time = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 19);
const coins = (units: number, coin: string) => `${coinsOf(units).toFixed(8)} ${escapeHtml(coin)}`;
const row = (cells: string[]) => `<tr>${cells.map((c) => `<td>${c}</td>`).join("")}</tr>`;
const table = (head: string[], rows: string[], empty: string) =>
  rows.length === 0
    ? `<p class="mute">${empty}</p>`
    : `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:960px;padding:1rem;color:#1b1f24}
h1{margin:.2rem 0}h2{margin:1.6rem 0 .4rem;font-size:1.1rem}.mute{color:#667}.notice{background:#fff6d6;padding:.5rem .8rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{color:#667}dd{margin:0}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #e3e6ea}
code{background:#f1f3f5;padding:0 .3rem}.err{color:#b00020}input{width:min(36rem,100%);padding:.3rem}`;

function figures(v: PageView): string {
  const s = v.stats;
  const items: [string, string][] = [
    ["Pool", v.running ? "running" : "stopped"],
    ["Hashrate (10 min)", formatHashrate(s.hashrate)],
    ["Miners / workers", `${s.addresses} / ${s.workers}`],
    ["Blocks found", String(s.blocks_found)],
    ["Network difficulty", s.network_difficulty === null ? "—" : s.network_difficulty.toPrecision(6)],
    ["Round effort", s.effort === null ? "—" : `${(s.effort * 100).toFixed(1)} %`],
    ["Reward scheme", `PPLNS, window ${v.pplnsWindow} work, pool fee ${(v.fee * 100).toFixed(2)} %`],
    ["Payout threshold", `${v.payoutThreshold} ${escapeHtml(v.coin)}`],
  ];
  return `<dl>${items.map(([k, val]) => `<dt>${k}</dt><dd data-field="${escapeHtml(k)}">${val}</dd>`).join("")}</dl>`;
}

function connect(v: PageView): string {
  const rows = v.ports.map((p) =>
    row([
      `<code>stratum+tcp://${escapeHtml(v.host)}:${p.port}</code>`,
      escapeHtml(p.name || (p.project ? "main" : "")),
      String(p.difficulty ?? "—"),
    ]),
  );
  return `<h2>Connect</h2><p>User: your ${escapeHtml(v.coin)} address, optionally followed by <code>.worker</code>; any password.</p>${table(["Address", "Port", "Start difficulty"], rows, "No port.")}`;
}

function blocks(v: PageView): string {
  const rows = v.blocks.map((b) =>
    row([String(b.height), time(b.found_at), escapeHtml(b.status), coins(b.reward, v.coin)]),
  );
  return `<h2>Recent blocks</h2>${table(["Height", "Found (UTC)", "Status", "Reward"], rows, "No block found yet.")}`;
}

function payouts(v: PageView): string {
  const rows = v.payouts.map((p) =>
    row([
      time(p.created_at),
      escapeHtml(p.state),
      `<code>${escapeHtml(p.txid ?? "—")}</code>`,
      coins(p.total, v.coin),
    ]),
  );
  return `<h2>Recent payouts</h2>${table(["Time (UTC)", "State", "Transaction", "Total"], rows, "No payout yet.")}`;
}

function lookup(v: PageView): string {
  const l = v.lookup;
  const value = l === null ? "" : escapeHtml(l.address);
  const form = `<h2>Your address</h2><form method="get"><input name="address" maxlength="128" placeholder="${escapeHtml(v.coin)} address" value="${value}" required> <button>Look up</button></form>`;
  if (l === null) return form;
  if (l.view === null) return `${form}<p class="err" role="alert">${escapeHtml(l.error ?? "")}</p>`;
  const a = l.view;
  const workers = a.workers.map((w) =>
    row([escapeHtml(w.worker), String(w.shares), String(w.work), time(w.last_share_at)]),
  );
  return `${form}<section id="address"><dl>
<dt>Balance</dt><dd data-field="balance">${coins(a.balance, v.coin)}</dd>
<dt>Paid</dt><dd data-field="paid">${coins(a.paid, v.coin)}</dd>
<dt>Shares in the window</dt><dd data-field="window">${a.window.shares} (work ${a.window.work})</dd></dl>
${table(["Worker", "Shares (10 min)", "Work", "Last share (UTC)"], workers, "No share in the last 10 minutes.")}</section>`;
}

export function renderPage(v: PageView): string {
  const title = escapeHtml(v.title || `${v.coin} pool`);
  const notice = v.notice === "" ? "" : `<p class="notice">${escapeHtml(v.notice)}</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title><style>${STYLE}</style></head><body>
<h1>${title}</h1>${notice}${figures(v)}${lookup(v)}${connect(v)}${blocks(v)}${payouts(v)}
<p class="mute">Self-hosted with Pithead.</p></body></html>`;
}
