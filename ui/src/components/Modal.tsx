import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";
import { t } from "../lib/i18n.ts";

interface Props {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
  footer?: ComponentChildren;
  wide?: boolean;
  testId?: string;
}

/** A modal dialog: Escape and the close button close it; focus moves into it on open. */
export function Modal({ title, onClose, children, footer, wide, testId }: Props) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  // Where focus was when the dialog opened (read at first render, before anything moves it).
  const opener = useRef(document.activeElement as HTMLElement | null);
  const close = useRef(onClose);
  close.current = onClose;
  // Once per opening: focus moves in, Escape closes the topmost dialog, focus returns on close.
  useEffect(() => {
    const prev = opener.current;
    const first =
      box.current?.querySelector<HTMLElement>("input:not([disabled]),select,textarea") ??
      box.current?.querySelector<HTMLElement>("button:not([data-close])");
    first?.focus();
    const onKey = (e: KeyboardEvent) => {
      const dialogs = document.querySelectorAll('[role="dialog"]');
      if (e.key === "Escape" && dialogs[dialogs.length - 1] === box.current) close.current();
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      prev?.focus?.();
    };
  }, []);
  return (
    <div class="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-black/60 p-2 sm:p-6">
      <div
        ref={box}
        role="dialog"
        aria-modal="true"
        aria-labelledby={id}
        data-testid={testId}
        class={`w-full ${wide ? "max-w-4xl" : "max-w-lg"} rounded-lg border border-line bg-panel shadow-xl`}
      >
        <div class="flex items-center justify-between border-b border-line px-4 py-2">
          <h2 id={id} class="text-base font-semibold">
            {title}
          </h2>
          <button
            type="button"
            data-close
            class="px-2 text-xl text-mute hover:text-fg"
            aria-label={t("common.close")}
            onClick={onClose}
          >
            ×
          </button>
        </div>
        <div class="p-4">{children}</div>
        {footer && (
          <div class="flex flex-wrap justify-end gap-2 border-t border-line px-4 py-2">{footer}</div>
        )}
      </div>
    </div>
  );
}
