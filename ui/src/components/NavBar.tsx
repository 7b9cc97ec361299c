import { useState } from "preact/hooks";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { post, setToken } from "../lib/api.ts";
import { ask } from "../lib/confirm.ts";
import { t } from "../lib/i18n.ts";
import { session } from "../lib/session.ts";
import { useStore } from "../lib/use-store.ts";
import { LangThemeBar } from "./LangThemeBar.tsx";

const LINKS = [
  ["/system/index/chartcard", "nav.dashboard"],
  ["/system/pool", "nav.pool"],
  ["/system/regpool", "nav.regpool"],
  ["/system/control", "nav.control"],
] as const;

/** The device list of a port belongs to the pool page in the navigation. */
function activeSection(pathname: string): string {
  return pathname.startsWith("/system/index/portinside") ? "/system/pool" : pathname;
}

/** Top navigation: pages, settings, language and theme, logout. Collapses into a menu on phones. */
export function NavBar({ onSettings }: { onSettings: () => void }) {
  const nav = useNavigate();
  const s = useStore(session);
  const [open, setOpen] = useState(false);
  const logout = async () => {
    if (!(await ask(t("nav.logout_confirm")))) return;
    await post("/api/_/logout", {}, { quiet: true }).catch(() => undefined);
    setToken(null);
    nav("/login", { replace: true });
  };
  const { pathname } = useLocation();
  const link = (to: string) =>
    `block rounded px-3 py-1.5 text-sm ${activeSection(pathname) === to ? "bg-panel2 text-acc" : "text-fg hover:bg-panel2"}`;
  return (
    <header class="sticky top-0 z-30 border-b border-line bg-panel">
      <div class="mx-auto flex max-w-7xl flex-wrap items-center gap-2 px-2 py-1.5 sm:px-4">
        <span class="mr-2 font-bold text-acc">Pithead</span>
        <button
          type="button"
          class="ml-auto rounded border border-line px-2 py-1 md:hidden"
          aria-expanded={open}
          aria-controls="main-nav"
          onClick={() => setOpen(!open)}
        >
          ☰ {t("nav.menu")}
        </button>
        <nav
          id="main-nav"
          aria-label={t("nav.menu")}
          class={`${open ? "flex" : "hidden"} w-full flex-col gap-1 md:flex md:w-auto md:flex-row`}
        >
          {LINKS.map(([to, key]) => (
            <Link
              key={to}
              to={to}
              class={link(to)}
              aria-current={pathname === to ? "page" : undefined}
              onClick={() => setOpen(false)}
            >
              {t(key)}
            </Link>
          ))}
          <button
            type="button"
            class="rounded px-3 py-1.5 text-left text-sm hover:bg-panel2"
            onClick={onSettings}
          >
            {t("nav.settings")}
          </button>
        </nav>
        <div
          class={`${open ? "flex" : "hidden"} w-full items-center justify-end gap-2 md:ml-auto md:flex md:w-auto`}
        >
          <LangThemeBar />
          <span class="text-sm text-mute" data-testid="whoami">
            {s?.username}
          </span>
          <button
            type="button"
            class="rounded border border-line px-2 py-1 text-sm hover:bg-panel2"
            onClick={logout}
          >
            {t("nav.logout")}
          </button>
        </div>
      </div>
    </header>
  );
}
