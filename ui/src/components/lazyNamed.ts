import type { ComponentType } from "preact";
import { lazy } from "preact/compat";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { ChunkError } from "./ChunkError.tsx";

/**
 * A component loaded on demand (its own chunk). A chunk that fails to load (an update replaced the
 * files, the network dropped) shows a toast and a reload hint instead of breaking the page.
 */
export function lazyNamed<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return lazy(() =>
    load().then(
      (c) => ({ default: c }),
      (e: unknown) => {
        toast("err", t("err.chunk"), String(e));
        return { default: ChunkError as ComponentType<P> };
      },
    ),
  );
}
