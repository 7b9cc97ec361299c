/** The port editor and the hot-wallet editor, each its own chunk, opened from the pool page and the port page. */
import { lazyNamed } from "./lazyNamed.ts";

export const PortEditor = lazyNamed(() => import("../editor/PortEditor.tsx").then((m) => m.PortEditor));
export const HotWallets = lazyNamed(() => import("../dialogs/HotWallets.tsx").then((m) => m.HotWallets));
