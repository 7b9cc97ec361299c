import { useEffect } from "preact/hooks";
import { useNavigate } from "react-router-dom";
import { sessionLost } from "../lib/api.ts";

/** Sends the user to the login page when any call answers 401/403 (spec §4, §8). */
export function SessionWatch() {
  const nav = useNavigate();
  useEffect(
    () =>
      sessionLost.subscribe((lost) => {
        if (lost) nav("/login", { replace: true });
      }),
    [nav],
  );
  return null;
}
