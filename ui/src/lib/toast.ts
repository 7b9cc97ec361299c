/** Toasts: short notices shown for 10 s (spec §9). */
import { createStore } from "./store.ts";

export type ToastKind = "ok" | "err" | "warn";
export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
  detail?: string;
}

export const TOAST_MS = 10_000;
export const toasts = createStore<Toast[]>([]);
let seq = 0;

export function dismiss(id: number): void {
  toasts.set((list) => list.filter((x) => x.id !== id));
}

export function toast(kind: ToastKind, text: string, detail?: string): void {
  const id = ++seq;
  toasts.set((list) => [...list.slice(-4), { id, kind, text, detail }]);
  setTimeout(() => dismiss(id), TOAST_MS);
}
