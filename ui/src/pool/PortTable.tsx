import { useState } from "preact/hooks";
import { EmptyRow } from "../components/EmptyRow.tsx";
import { Pager } from "../components/Pager.tsx";
import { t } from "../lib/i18n.ts";
import type { PortItem } from "../lib/port-types.ts";
import { paginate, type SortKey, sortPorts } from "../lib/ports.ts";
import { prefs, setPref } from "../lib/prefs.ts";
import { TH } from "../lib/ui.ts";
import { useStore } from "../lib/use-store.ts";
import { BatchBar } from "./BatchBar.tsx";
import { PortRow } from "./PortRow.tsx";

interface Props {
  items: PortItem[];
  loaded: boolean;
  onReload: () => void;
  onEdit: (id: number) => void;
  onClone: (id: number) => void;
  onHot: (id: number) => void;
}

const COLS: [SortKey | null, string][] = [
  ["port", "port.port"],
  ["name", "port.name"],
  [null, "port.currency"],
  [null, "port.pool"],
  ["online", "port.online"],
  ["delay", "port.delay"],
  [null, "port.fee"],
  ["state", "port.state"],
];

/** The port table: sortable columns, selection for batch actions, paging. */
export function PortTable({ items, loaded, onReload, onEdit, onClone, onHot }: Props) {
  const p = useStore(prefs);
  const [page, setPage] = useState(1);
  const [sel, setSel] = useState<Set<number>>(new Set());
  const sorted = sortPorts(items, p.portListActiveSort as SortKey, p.portListSortDir);
  const view = paginate(sorted, page, p.portListPageSie);
  const sortBy = (key: SortKey) => {
    if (p.portListActiveSort === key)
      setPref("portListSortDir", p.portListSortDir === "ascending" ? "descending" : "ascending");
    else {
      setPref("portListActiveSort", key);
      setPref("portListSortDir", "ascending");
    }
  };
  const allOnPage = view.rows.length > 0 && view.rows.every((r) => sel.has(r.server.id));
  const toggleAll = () => setSel(allOnPage ? new Set() : new Set(view.rows.map((r) => r.server.id)));
  const toggle = (id: number) => {
    const next = new Set(sel);
    next.has(id) ? next.delete(id) : next.add(id);
    setSel(next);
  };
  return (
    <div class="space-y-2">
      <BatchBar
        ids={[...sel]}
        onDone={() => {
          setSel(new Set());
          onReload();
        }}
      />
      <div class="overflow-x-auto rounded-lg border border-line bg-panel">
        <table class="w-full text-sm" data-testid="port-table">
          <thead class="border-b border-line">
            <tr>
              <th class={TH}>
                <input
                  type="checkbox"
                  aria-label={t("pool.select_all")}
                  checked={allOnPage}
                  onChange={toggleAll}
                />
              </th>
              {COLS.map(([key, label]) => (
                <th
                  key={label}
                  class={TH}
                  aria-sort={key && key === p.portListActiveSort ? p.portListSortDir : undefined}
                >
                  {key ? (
                    <button type="button" class="hover:text-fg" onClick={() => sortBy(key)}>
                      {t(label)}{" "}
                      {key === p.portListActiveSort ? (p.portListSortDir === "ascending" ? "▲" : "▼") : ""}
                    </button>
                  ) : (
                    t(label)
                  )}
                </th>
              ))}
              <th class={TH}>{t("common.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {view.rows.map((item) => (
              <PortRow
                key={item.server.id}
                item={item}
                selected={sel.has(item.server.id)}
                onToggle={() => toggle(item.server.id)}
                onReload={onReload}
                onEdit={onEdit}
                onClone={onClone}
                onHot={onHot}
              />
            ))}
            {loaded && view.rows.length === 0 && <EmptyRow cols={10} text={t("pool.empty")} />}
          </tbody>
        </table>
      </div>
      <Pager
        page={view.page}
        pages={view.pages}
        size={p.portListPageSie}
        total={items.length}
        onPage={setPage}
        onSize={(n) => setPref("portListPageSie", n)}
      />
    </div>
  );
}
