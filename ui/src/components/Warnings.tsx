import { t } from "../lib/i18n.ts";
import { session } from "../lib/session.ts";
import { LINK } from "../lib/ui.ts";
import { useStore } from "../lib/use-store.ts";

/** The default-login and unset-secure-route warnings of spec §4. */
export function Warnings({ onSettings }: { onSettings: () => void }) {
  const s = useStore(session);
  if (!s || (!s.default_password && s.route_set)) return null;
  return (
    <div class="mx-auto max-w-7xl space-y-1 px-2 pt-2 sm:px-4">
      {s.default_password && (
        <p
          role="alert"
          data-testid="warn-default"
          class="rounded border border-warn bg-panel px-3 py-2 text-sm text-warn"
        >
          {t("warn.default_login")}{" "}
          <button type="button" class={LINK} onClick={onSettings}>
            {t("warn.fix")}
          </button>
        </p>
      )}
      {!s.route_set && (
        <p
          role="alert"
          data-testid="warn-route"
          class="rounded border border-warn bg-panel px-3 py-2 text-sm text-warn"
        >
          {t("warn.route_unset")}{" "}
          <button type="button" class={LINK} onClick={onSettings}>
            {t("warn.fix")}
          </button>
        </p>
      )}
    </div>
  );
}
