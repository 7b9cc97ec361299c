import type { FunctionComponent } from "preact";
import { useState } from "preact/hooks";
import { Modal } from "../components/Modal.tsx";
import { t } from "../lib/i18n.ts";
import { About } from "./About.tsx";
import { AccountSection } from "./AccountSection.tsx";
import { AlertSection } from "./AlertSection.tsx";
import { BlacklistSection } from "./BlacklistSection.tsx";
import { CertSection } from "./CertSection.tsx";
import { ControlSection } from "./ControlSection.tsx";
import { EngineSection } from "./EngineSection.tsx";
import { IpComingSection } from "./IpComingSection.tsx";
import { KencSection } from "./KencSection.tsx";
import { LogsSection } from "./LogsSection.tsx";
import { PresetSection } from "./PresetSection.tsx";
import { RmsSection } from "./RmsSection.tsx";
import { SystemSection } from "./SystemSection.tsx";
import { UpdateSection } from "./UpdateSection.tsx";
import { WebSection } from "./WebSection.tsx";

const SECTIONS: [string, FunctionComponent<{ onClose?: () => void }>][] = [
  ["account", AccountSection],
  ["web", WebSection],
  ["cert", CertSection],
  ["kenc", KencSection],
  ["blacklist", BlacklistSection],
  ["ipcoming", IpComingSection],
  ["alert", AlertSection],
  ["presets", PresetSection],
  ["system", SystemSection],
  ["logs", LogsSection],
  ["updates", UpdateSection],
  ["engine", EngineSection],
  ["rms", RmsSection],
  ["control", ControlSection],
  ["about", About],
];

/** Every settings section of spec §2, one at a time, picked from a list (a select on phones). */
export function Settings({ onClose }: { onClose: () => void }) {
  const [key, setKey] = useState("account");
  const Section = SECTIONS.find(([k]) => k === key)?.[1] ?? AccountSection;
  return (
    <Modal title={t("nav.settings")} onClose={onClose} wide testId="settings">
      <div class="flex flex-col gap-3 md:flex-row">
        <nav aria-label={t("nav.settings")} class="md:w-48 md:shrink-0">
          <ul class="flex flex-wrap gap-1 md:flex-col">
            {SECTIONS.map(([k]) => (
              <li key={k}>
                <button
                  type="button"
                  data-section={k}
                  aria-current={k === key ? "page" : undefined}
                  class={`w-full rounded px-2 py-1 text-left text-sm ${k === key ? "bg-panel2 text-acc" : "hover:bg-panel2"}`}
                  onClick={() => setKey(k)}
                >
                  {t(`settings.${k}`)}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <section class="min-w-0 flex-1" aria-label={t(`settings.${key}`)}>
          <h3 class="mb-3 font-semibold">{t(`settings.${key}`)}</h3>
          <Section onClose={onClose} />
        </section>
      </div>
    </Modal>
  );
}
