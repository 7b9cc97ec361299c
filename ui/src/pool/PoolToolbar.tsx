import { Suspense } from "preact/compat";
import { useState } from "preact/hooks";
import { lazyNamed } from "../components/lazyNamed.ts";
import { t } from "../lib/i18n.ts";
import { prefs, setPref } from "../lib/prefs.ts";
import { BTN_GHOST, BTN_PRIMARY } from "../lib/ui.ts";
import { useStore } from "../lib/use-store.ts";

const ImportDialog = lazyNamed(() => import("../dialogs/ImportDialog.tsx").then((m) => m.ImportDialog));
const ExportDialog = lazyNamed(() => import("../dialogs/ExportDialog.tsx").then((m) => m.ExportDialog));

interface Props {
  coin: string;
  onAdd: () => void;
  onReload: () => void;
}

/** Add, import, export and refresh. */
export function PoolToolbar({ onAdd, onReload }: Props) {
  const [dlg, setDlg] = useState<"" | "import" | "export">("");
  const p = useStore(prefs);
  return (
    <div class="flex flex-wrap items-center gap-2">
      <button type="button" class={BTN_PRIMARY} onClick={onAdd} data-testid="add-port">
        + {t("pool.add")}
      </button>
      <button type="button" class={BTN_GHOST} onClick={() => setDlg("import")}>
        {t("pool.import")}
      </button>
      <button type="button" class={BTN_GHOST} onClick={() => setDlg("export")}>
        {t("pool.export")}
      </button>
      <button
        type="button"
        class={BTN_GHOST}
        aria-pressed={p.hideLeftCard}
        onClick={() => setPref("hideLeftCard", !p.hideLeftCard)}
      >
        {t(p.hideLeftCard ? "pool.show_coins" : "pool.hide_coins")}
      </button>
      <button type="button" class={BTN_GHOST} onClick={onReload}>
        ⟳ {t("common.refresh")}
      </button>
      <Suspense fallback={null}>
        {dlg === "import" && (
          <ImportDialog
            onClose={() => setDlg("")}
            onDone={() => {
              setDlg("");
              onReload();
            }}
          />
        )}
        {dlg === "export" && <ExportDialog onClose={() => setDlg("")} />}
      </Suspense>
    </div>
  );
}
