import { t } from "../lib/i18n.ts";
import { LINK, TD, TH } from "../lib/ui.ts";
import { EmptyRow } from "./EmptyRow.tsx";

export interface PresetRow {
  name: string;
  address: string;
  /** 0 TCP, 1 SSL; shown when the table has a protocol column */
  deal?: number;
}

interface Props {
  rows: PresetRow[];
  /** show the TCP/SSL column */
  protocol?: boolean;
  /** the link of each row (delete or select); none for read-only lists */
  action?: { label: string; danger?: boolean; onClick: (row: PresetRow, index: number) => void };
  empty: string;
  class?: string;
}

/** The table of the preset pool and wallet dialogs: name, address, protocol, and one link per row. */
export function PresetTable({ rows, protocol = false, action, empty, class: cls = "" }: Props) {
  const columns = protocol ? 4 : 3;
  return (
    <table class={`w-full text-sm ${cls}`}>
      <thead>
        <tr>
          <th class={TH}>{t("preset.name")}</th>
          <th class={TH}>{t("preset.address")}</th>
          {protocol && <th class={TH}>{t("port.pool_protocol")}</th>}
          <th class={TH} />
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={`${i}-${r.address}`} class="border-t border-line">
            <td class={TD}>{r.name}</td>
            <td class={`${TD} font-mono text-xs`}>{r.address}</td>
            {protocol && <td class={TD}>{r.deal === 1 ? "SSL" : "TCP"}</td>}
            <td class={TD}>
              {action && (
                <button
                  type="button"
                  class={action.danger ? `${LINK} text-bad` : LINK}
                  onClick={() => action.onClick(r, i)}
                >
                  {action.label}
                </button>
              )}
            </td>
          </tr>
        ))}
        {rows.length === 0 && <EmptyRow cols={columns} text={empty} />}
      </tbody>
    </table>
  );
}
