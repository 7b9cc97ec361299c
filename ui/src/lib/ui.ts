/** Shared utility-class strings (twind), so components stay short and consistent. */
export const INPUT_BASE =
  "rounded border border-line bg-panel2 px-2 py-1.5 text-fg placeholder-mute focus:outline-none focus:ring-2 focus:ring-acc disabled:opacity-50";
export const INPUT = `${INPUT_BASE} w-full`;
export const BTN =
  "inline-flex items-center justify-center gap-1 rounded px-3 py-1.5 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-acc disabled:opacity-50 disabled:cursor-not-allowed";
export const BTN_PRIMARY = `${BTN} bg-acc text-accfg hover:brightness-110`;
export const BTN_GHOST = `${BTN} border border-line text-fg hover:bg-panel2`;
export const BTN_DANGER = `${BTN} bg-bad text-white hover:brightness-110`;
export const LINK = "text-acc hover:underline cursor-pointer bg-transparent border-0 p-0";
export const CARD = "rounded-lg border border-line bg-panel p-3";
export const TH = "px-2 py-1.5 text-left text-xs font-semibold text-mute whitespace-nowrap";
export const TD = "px-2 py-1.5 whitespace-nowrap";
