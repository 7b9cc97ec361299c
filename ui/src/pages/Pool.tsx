import { Suspense } from "preact/compat";
import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import { HotWallets, PortEditor } from "../components/PortDialogs.ts";
import { visibleCoins } from "../lib/coins.ts";
import { listPorts } from "../lib/port-api.ts";
import type { PortItem } from "../lib/port-types.ts";
import { prefs, setPref } from "../lib/prefs.ts";
import { currency } from "../lib/session.ts";
import { useStore } from "../lib/use-store.ts";
import { CoinList } from "../pool/CoinList.tsx";
import { CoinNote } from "../pool/CoinNote.tsx";
import { PoolToolbar } from "../pool/PoolToolbar.tsx";
import { PortTable } from "../pool/PortTable.tsx";

export type EditorMode = { mode: "add" } | { mode: "edit"; id: number } | { mode: "clone"; id: number };

/** The pool page: coins on the left, the selected coin's ports on the right. */
export function Pool() {
  const cfg = useStore(currency);
  const p = useStore(prefs);
  const [items, setItems] = useState<PortItem[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [editor, setEditor] = useState<EditorMode | null>(null);
  const [hot, setHot] = useState<number | null>(null);
  const coins = useMemo(() => visibleCoins(cfg), [cfg]);
  const coin = p.poolID && coins.includes(p.poolID) ? p.poolID : "";
  const reload = useCallback(
    () =>
      listPorts()
        .then(setItems)
        .catch(() => undefined)
        .finally(() => setLoaded(true)),
    [],
  );
  // Online counts and run states change by themselves: refresh the list every 15 s.
  useEffect(() => {
    reload();
    const id = setInterval(reload, 15_000);
    return () => clearInterval(id);
  }, [reload]);
  const shown = coin ? items.filter((i) => i.server.currency === coin) : items;
  return (
    <div class="flex flex-col gap-3 md:flex-row">
      {!p.hideLeftCard && (
        <CoinList coins={coins} items={items} selected={coin} onSelect={(c) => setPref("poolID", c)} />
      )}
      <section class="min-w-0 flex-1 space-y-2" aria-label="ports">
        <PoolToolbar coin={coin} onAdd={() => setEditor({ mode: "add" })} onReload={reload} />
        {coin && <CoinNote coin={coin} />}
        <PortTable
          items={shown}
          loaded={loaded}
          onReload={reload}
          onEdit={(id) => setEditor({ mode: "edit", id })}
          onClone={(id) => setEditor({ mode: "clone", id })}
          onHot={setHot}
        />
      </section>
      <Suspense fallback={null}>
        {editor && (
          <PortEditor
            target={editor}
            coin={coin}
            onClose={() => setEditor(null)}
            onSaved={() => {
              setEditor(null);
              reload();
            }}
          />
        )}
        {hot !== null && <HotWallets portId={hot} onClose={() => setHot(null)} onSaved={reload} />}
      </Suspense>
    </div>
  );
}
