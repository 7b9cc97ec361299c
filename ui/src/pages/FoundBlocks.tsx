import { t } from "../lib/i18n.ts";
import { CARD, TD, TH } from "../lib/ui.ts";

export interface FoundBlock {
  hash: string;
  height: number;
  worker: string;
  status: "submitted" | "rejected" | "orphaned" | "immature" | "mature";
  confirmations: number | null;
  verdict: string | null;
}

/** Each status's words, written out so that every key is a literal the catalogs test can find. */
function statusText(b: FoundBlock): string {
  switch (b.status) {
    case "submitted":
      return t("poolnode.block_submitted");
    case "rejected":
      return t("poolnode.block_rejected", { reason: b.verdict ?? "" });
    case "orphaned":
      return t("poolnode.block_orphaned");
    case "immature":
      return t("poolnode.block_immature", { n: b.confirmations ?? 0 });
    case "mature":
      return t("poolnode.block_mature");
  }
}

/** The blocks the pool node found (newest first, from sync/info) and where each stands. */
export function FoundBlocks({ blocks }: { blocks: FoundBlock[] }) {
  return (
    <section class={CARD} data-testid="poolnode-blocks">
      <h2 class="mb-2 font-semibold">{t("poolnode.blocks")}</h2>
      {blocks.length === 0 ? (
        <p class="text-sm text-mute">{t("poolnode.no_blocks")}</p>
      ) : (
        <table class="w-full text-sm">
          <thead>
            <tr>
              <th class={TH}>{t("poolnode.block_height")}</th>
              <th class={TH}>{t("poolnode.block_hash")}</th>
              <th class={TH}>{t("poolnode.block_worker")}</th>
              <th class={TH}>{t("poolnode.block_status")}</th>
            </tr>
          </thead>
          <tbody>
            {blocks.map((b) => (
              <tr key={b.hash}>
                <td class={TD}>{b.height}</td>
                <td class={`${TD} font-mono`} title={b.hash}>
                  {b.hash.slice(0, 16)}…
                </td>
                <td class={TD}>{b.worker}</td>
                <td class={TD}>{statusText(b)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
