import { Suspense } from "preact/compat";
import { lazyNamed } from "../components/lazyNamed.ts";
import { CoinRanking } from "../dashboard/CoinRanking.tsx";
import { Notice } from "../dashboard/Notice.tsx";
import { OpLog } from "../dashboard/OpLog.tsx";
import { SysCards } from "../dashboard/SysCards.tsx";
import { t } from "../lib/i18n.ts";
import { CARD } from "../lib/ui.ts";

const HashChart = lazyNamed(() => import("../dashboard/HashChart.tsx").then((m) => m.HashChart));

/** Overview: system cards, hashrate chart, coin ranking, operation log, notices. */
export function Dashboard() {
  return (
    <div class="space-y-3" data-testid="dashboard">
      <Notice />
      <SysCards />
      <div class="grid gap-3 lg:grid-cols-3">
        <section class={`${CARD} lg:col-span-2`} aria-label={t("dash.hashrate")}>
          <Suspense fallback={<p class="text-mute">{t("common.loading")}</p>}>
            <HashChart />
          </Suspense>
        </section>
        <CoinRanking />
      </div>
      <OpLog />
    </div>
  );
}
