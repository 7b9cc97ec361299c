import { useEffect, useState } from "preact/hooks";
import { get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { BTN_GHOST, LINK } from "../lib/ui.ts";

const DISMISSED = "pithead.plain-http-dismissed";

/**
 * Issue 8: while the console is used over plain http (password, tokens and wallets readable on the
 * LAN) it says so, with a link to the same page on the HTTPS listener. Dismissed for this tab's session.
 */
export function PlainHttpBanner() {
  const plain = location.protocol === "http:";
  const [dismissed, setDismissed] = useState(() => sessionStorage.getItem(DISMISSED) === "1");
  const [port, setPort] = useState(0);
  useEffect(() => {
    if (plain && !dismissed)
      get<{ port: number }>("/api/_/https", { quiet: true }).then(
        (r) => setPort(r.port),
        () => undefined,
      );
  }, [plain, dismissed]);
  if (!plain || dismissed) return null;
  const secure = new URL(location.href);
  secure.protocol = "https:";
  secure.port = String(port);
  const dismiss = () => {
    sessionStorage.setItem(DISMISSED, "1");
    setDismissed(true);
  };
  return (
    <div class="mx-auto max-w-7xl px-2 pt-2 sm:px-4">
      <p
        role="alert"
        data-testid="plain-http"
        class="flex flex-wrap items-center gap-2 rounded border border-warn bg-panel px-3 py-2 text-sm text-warn"
      >
        <span class="mr-auto">
          {t("warn.plain_http")}{" "}
          {port > 0 && (
            <a class={LINK} href={secure.toString()} data-testid="plain-http-link">
              {t("warn.plain_http_link", { url: secure.origin })}
            </a>
          )}
        </span>
        <button type="button" class={BTN_GHOST} onClick={dismiss}>
          {t("warn.dismiss")}
        </button>
      </p>
    </div>
  );
}
