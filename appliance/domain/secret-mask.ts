/**
 * Secrets the API stores but never answers in clear (alert channel secrets, the push key, RMS
 * passwords): a read shows MASK where one is set, and a save that sends MASK back keeps the stored
 * value, so a form can show and resend a secret it never saw.
 */
export const MASK = "********";

export const mask = (s: string) => (s === "" ? "" : MASK);
export const keep = (v: string, old: string) => (v === MASK ? old : v);
