/** Promise-based confirmation: `await ask(text)` resolves true when the user confirms. */
import { createStore } from "./store.ts";

export interface Ask {
  text: string;
  danger: boolean;
  resolve: (ok: boolean) => void;
}

export const asking = createStore<Ask | null>(null);

export function ask(text: string, danger = false): Promise<boolean> {
  return new Promise((resolve) => {
    asking.set({
      text,
      danger,
      resolve: (ok) => {
        asking.set(null);
        resolve(ok);
      },
    });
  });
}
