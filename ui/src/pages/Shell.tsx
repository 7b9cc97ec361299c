import { Suspense } from "preact/compat";
import { useEffect, useState } from "preact/hooks";
import { Navigate, Outlet, useLocation } from "react-router-dom";
import { lazyNamed } from "../components/lazyNamed.ts";
import { NavBar } from "../components/NavBar.tsx";
import { Warnings } from "../components/Warnings.tsx";
import { getToken } from "../lib/api.ts";
import { beforeNavigate, loadSession } from "../lib/session.ts";

const Settings = lazyNamed(() => import("../settings/Settings.tsx").then((m) => m.Settings));

/** The dashboard shell: navigation, warnings, the page, and the settings panel on demand. */
export function Shell() {
  const loc = useLocation();
  const [settings, setSettings] = useState(false);
  useEffect(() => {
    if (getToken()) loadSession().catch(() => undefined);
  }, []);
  useEffect(() => {
    if (getToken()) beforeNavigate();
  }, [loc.pathname]);
  if (!getToken()) return <Navigate to="/login" replace />;
  return (
    <div class="min-h-screen">
      <NavBar onSettings={() => setSettings(true)} />
      <Warnings onSettings={() => setSettings(true)} />
      <main class="mx-auto max-w-7xl p-2 sm:p-4">
        {/* the pool-node and group-control pages load on demand */}
        <Suspense fallback={null}>
          <Outlet />
        </Suspense>
      </main>
      {settings && (
        <Suspense fallback={null}>
          <Settings onClose={() => setSettings(false)} />
        </Suspense>
      )}
    </div>
  );
}
