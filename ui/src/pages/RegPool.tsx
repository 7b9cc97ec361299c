import { get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { CARD } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";
import { type FoundBlock, FoundBlocks } from "./FoundBlocks.tsx";
import { PoolNodeLedger } from "./PoolNodeLedger.tsx";
import { PoolNodePage } from "./PoolNodePage.tsx";
import { PoolNodePorts } from "./PoolNodePorts.tsx";
import { PoolNodeProject } from "./PoolNodeProject.tsx";

interface NodeInfo {
  status?: number;
  data?: {
    state: "activated" | "running";
    error: string;
    projectPort: number;
    config: { coin: string; difficulty: number };
  };
}

interface SyncInfo {
  status?: number;
  data?: {
    chain?: { chain: string; blocks: number };
    template?: { height: number } | null;
    blocks?: FoundBlock[];
  };
}

const REFRESH_MS = 10_000;

/** The pool node's state (docs/pool-node.md); status 4 means not activated (spec §4, §8). */
export function RegPool() {
  const [info, reload] = useFetch(
    () => get<NodeInfo>("/api/poolnode/project/info", { quiet: true }).catch((): NodeInfo => ({ status: 4 })),
    [],
    REFRESH_MS,
  );
  const running = info?.data?.state === "running";
  const [sync] = useFetch(
    () =>
      running
        ? get<SyncInfo>("/api/poolnode/sync/info", { quiet: true }).catch((): SyncInfo => ({}))
        : Promise.resolve<SyncInfo>({}),
    [running],
    REFRESH_MS,
  );
  const node = info?.status === 0 ? info.data : undefined;
  const chain = sync?.data?.chain;
  return (
    <div class="space-y-3" data-testid="regpool">
      <h1 class="text-lg font-semibold">{t("poolnode.title")}</h1>
      <section class={CARD} data-testid="regpool-state">
        {info === null ? (
          <p class="text-mute">{t("common.loading")}</p>
        ) : node === undefined ? (
          <p role="status" class="text-warn">
            {t("poolnode.not_active")}
          </p>
        ) : node.state === "running" ? (
          <p role="status" class="text-ok">
            {t("poolnode.running", { coin: node.config.coin, port: node.projectPort })}
          </p>
        ) : (
          <p role="status" class="text-warn">
            {t("poolnode.activated", { error: node.error })}
          </p>
        )}
        {running && chain && (
          <p class="mt-2 text-sm" data-testid="regpool-sync">
            {t("poolnode.sync", {
              chain: chain.chain,
              height: chain.blocks,
              next: sync?.data?.template?.height ?? "—",
            })}
          </p>
        )}
        <p class="mt-2 text-sm text-mute">{t("poolnode.help")}</p>
      </section>
      <PoolNodePorts
        active={node !== undefined}
        coin={node?.config.coin ?? ""}
        projectDifficulty={node?.config.difficulty ?? 0}
      />
      {running && sync?.data?.blocks && <FoundBlocks blocks={sync.data.blocks} />}
      {node !== undefined && <PoolNodeLedger coin={node.config.coin} />}
      <PoolNodePage active={node !== undefined} />
      <PoolNodeProject active={node !== undefined} onChange={reload} />
    </div>
  );
}
