/**
 * Promise-based confirmation: `await ask(text)` resolves true when the user confirms;
 * `await askReason(text, label)` also asks for a written reason and resolves it, or null if cancelled.
 */
import { createStore } from "./store.ts";

export interface Ask {
  text: string;
  danger: boolean;
  /** the label of a required reason field; none when absent */
  reasonLabel?: string;
  resolve: (ok: boolean, reason?: string) => void;
}

export const asking = createStore<Ask | null>(null);

function open(text: string, danger: boolean, reasonLabel?: string): Promise<{ ok: boolean; reason: string }> {
  return new Promise((resolve) => {
    asking.set({
      text,
      danger,
      reasonLabel,
      resolve: (ok, reason = "") => {
        asking.set(null);
        resolve({ ok, reason });
      },
    });
  });
}

export function ask(text: string, danger = false): Promise<boolean> {
  return open(text, danger).then((a) => a.ok);
}

export function askReason(text: string, label: string): Promise<string | null> {
  return open(text, true, label).then((a) => (a.ok ? a.reason : null));
}
