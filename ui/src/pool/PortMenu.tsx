import { useEffect, useRef, useState } from "preact/hooks";
import { useNavigate } from "react-router-dom";
import { t } from "../lib/i18n.ts";
import { type PortAction, runPortAction } from "../lib/port-actions.ts";
import type { PortItem } from "../lib/port-types.ts";

interface Props {
  item: PortItem;
  onReload: () => void;
  onEdit: (id: number) => void;
  onClone: (id: number) => void;
  onHot: (id: number) => void;
}

/** Per-port actions: view miners, edit, hot-update fee config, copy, stop or open, delete. */
export function PortMenu({ item, onReload, onEdit, onClone, onHot }: Props) {
  const nav = useNavigate();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !box.current?.contains(e.target as Node))
        setOpen(false);
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);
  const id = item.server.id;
  const active = item.state === "active";
  const act = async (action: PortAction) => {
    setBusy(true);
    try {
      await runPortAction(action, id, item.server.port);
    } finally {
      setBusy(false);
      onReload();
    }
  };
  const choose = async (what: string) => {
    setOpen(false);
    if (what === "miners") nav(`/system/index/portinside?id=${id}`);
    else if (what === "edit") onEdit(id);
    else if (what === "clone") onClone(id);
    else if (what === "hot") onHot(id);
    else if (what === "toggle") await act(active ? "stop" : "start");
    else if (what === "delete") await act("delete");
  };
  const items: [string, string][] = [
    ["miners", "port.menu_miners"],
    ["edit", "port.menu_edit"],
    ["hot", "port.menu_hot"],
    ["clone", "port.menu_clone"],
    ["toggle", active ? "port.menu_stop" : "port.menu_start"],
    ["delete", "port.menu_delete"],
  ];
  return (
    <div ref={box} class="relative inline-block">
      <button
        type="button"
        class="rounded border border-line px-2 py-0.5 hover:bg-panel2 disabled:opacity-50"
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={busy || item.state === "queuing"}
        onClick={() => setOpen(!open)}
        aria-label={t("port.menu", { port: item.server.port })}
      >
        ⋯
      </button>
      {open && (
        <div
          role="menu"
          class="absolute right-0 z-20 mt-1 flex w-48 flex-col rounded border border-line bg-panel py-1 shadow-lg"
        >
          {items.map(([key, label]) => (
            <button
              key={key}
              type="button"
              role="menuitem"
              class={`w-full px-3 py-1.5 text-left text-sm hover:bg-panel2 ${key === "delete" ? "text-bad" : ""}`}
              onClick={() => choose(key)}
            >
              {t(label)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
