import { get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { useFetch } from "../lib/useFetch.ts";

interface Version {
  version: string;
}
interface Latest {
  version: string;
  latest: string | null;
  update_available: boolean;
  notice?: string;
}

/** Notice area and the new-version hint (the latest-version call is quiet when it is absent). */
export function Notice() {
  const [local] = useFetch(() => get<Version>("/api/local/version"), []);
  const [latest] = useFetch(() => get<Latest>("/api/version", { quiet: true }), []);
  const newer = latest?.update_available ? latest.latest : null;
  return (
    <div class="flex flex-wrap items-center gap-2 text-sm text-mute" data-testid="notice">
      <span>
        {t("dash.version")}: <span class="text-fg">{local?.version ?? "-"}</span>
      </span>
      {newer && (
        <span class="rounded border border-acc px-2 text-acc">
          {t("dash.new_version", { version: newer })}
        </span>
      )}
      {latest?.notice && <span class="rounded border border-line px-2">{latest.notice}</span>}
    </div>
  );
}
