import { useState } from "preact/hooks";
import { ClientForm } from "../control/ClientForm.tsx";
import { ClientTable } from "../control/ClientTable.tsx";
import { PinDialog } from "../control/PinDialog.tsx";
import { RemotePorts } from "../control/RemotePorts.tsx";
import { CONTROL_TOKEN, METRICS_TOKEN, TokenCard } from "../control/TokenCard.tsx";
import { get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import type { RemoteClient } from "../lib/remote-types.ts";
import { BTN_PRIMARY } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";

/** how often the list re-reads what the appliance's background refresh last saw of each remote */
const LIST_REFRESH_MS = 5000;

/** Group control: this instance's machine tokens, and the remote instances with their live state. */
export function Control() {
  const [list, reload] = useFetch(() => get<RemoteClient[]>("/api/remote/list"), [], LIST_REFRESH_MS);
  const [edit, setEdit] = useState<RemoteClient | "new" | null>(null);
  const [ports, setPorts] = useState<RemoteClient | null>(null);
  const [pin, setPin] = useState<RemoteClient | null>(null);
  return (
    <div class="space-y-3" data-testid="control">
      <TokenCard kind={CONTROL_TOKEN} />
      <TokenCard kind={METRICS_TOKEN} />
      <div class="flex items-center gap-2">
        <h1 class="mr-auto text-lg font-semibold">{t("remote.title")}</h1>
        <button type="button" class={BTN_PRIMARY} onClick={() => setEdit("new")}>
          + {t("remote.add")}
        </button>
      </div>
      <ClientTable list={list ?? []} onPorts={setPorts} onEdit={setEdit} onPin={setPin} onReload={reload} />
      {ports && <RemotePorts client={ports} onClose={() => setPorts(null)} />}
      {pin && (
        <PinDialog
          client={pin}
          onClose={() => setPin(null)}
          onPinned={() => {
            setPin(null);
            reload();
          }}
        />
      )}
      {edit && (
        <ClientForm
          client={edit === "new" ? null : edit}
          onClose={() => setEdit(null)}
          onSaved={() => {
            setEdit(null);
            reload();
          }}
        />
      )}
    </div>
  );
}
