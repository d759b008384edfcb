import { createSignal, For, lazy, Match, onMount, Show, Suspense, Switch } from 'solid-js';
import { InputPanel } from './components/InputPanel';
import { InsightsPanel } from './components/InsightsPanel';
import { TunePanel } from './components/TunePanel';
import type { Dropped } from './learn/drop';
import { createAppState } from './state';
import type { SampleMeta } from './state-types';
import { VERSION } from './version';

// Panels that are not needed for the first paint load on demand.
const PlaybookPanel = lazy(() => import('./components/PlaybookPanel'));
const SnapshotPanel = lazy(() =>
  import('./components/SnapshotPanel').then((m) => ({ default: m.SnapshotPanel })),
);
const ReductionPanel = lazy(() => import('./components/ReductionPanel'));
const AboutPanel = lazy(() => import('./components/AboutPanel'));
const LearnPanel = lazy(() => import('./learn/LearnPanel'));

const TABS = [
  { id: 'insights', label: 'Insights' },
  { id: 'snapshots', label: 'Snapshots' },
  { id: 'reduction', label: 'Trajectory reduction' },
  { id: 'playbook', label: 'Playbook' },
  { id: 'learn', label: 'Learn' },
] as const;

export function App() {
  const app = createAppState();
  const [about, setAbout] = createSignal(false);
  /** A folder dropped on the transcript, for the Learn tab to read when it opens. */
  const [learnDrop, setLearnDrop] = createSignal<Promise<Dropped> | null>(null);

  onMount(async () => {
    try {
      const res = await fetch(`${import.meta.env.BASE_URL}samples/manifest.json`);
      const { samples } = (await res.json()) as { samples: SampleMeta[] };
      app.setSamples(samples);
      // The first visit opens a sample, so there is something to look at; a shared URL picks its own.
      if (!app.text()) await app.loadSample(app.initialSample ?? 'console');
    } catch {
      /* offline file:// use: the editor still works */
    }
  });

  const onTabKey = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === app.tab());
    const next =
      e.key === 'ArrowRight'
        ? i + 1
        : e.key === 'ArrowLeft'
          ? i - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? TABS.length - 1
              : -2;
    if (next === -2) return;
    e.preventDefault();
    const t = TABS[(next + TABS.length) % TABS.length]!;
    app.setTab(t.id);
    document.getElementById(`tab-${t.id}`)?.focus();
  };

  return (
    <div class="app">
      <a class="skip-link" href="#results" data-testid="skip-link">
        Skip to the results
      </a>
      <header class="app-header">
        <div>
          <h1>
            <span class="logo" aria-hidden="true">
              ◐
            </span>{' '}
            rearview{' '}
            <span class="version" data-testid="version">
              v{VERSION}
            </span>
          </h1>
          <p class="tagline">
            Agents that learn from what they just did. Paste a transcript, tune the thresholds, and watch the
            deterministic and reflected snapshots diverge.
          </p>
        </div>
        <button type="button" class="ghost" aria-expanded={about()} onClick={() => setAbout(!about())}>
          About &amp; licences
        </button>
      </header>
      <Show when={about()}>
        <Suspense fallback={<p class="hint">Loading…</p>}>
          <AboutPanel samples={app.samples()} onClose={() => setAbout(false)} />
        </Suspense>
      </Show>
      <main class="workspace" data-testid="workspace">
        <div class="left">
          <InputPanel
            app={app}
            onFolder={(dropped) => {
              setLearnDrop(() => dropped);
              app.setTab('learn');
            }}
          />
          <TunePanel app={app} />
        </div>
        <section class="panel right" id="results" tabIndex={-1} aria-label="Results">
          <div class="tabs" role="tablist" aria-label="Views" onKeyDown={onTabKey}>
            <For each={TABS}>
              {(t) => (
                <button
                  type="button"
                  role="tab"
                  id={`tab-${t.id}`}
                  aria-selected={app.tab() === t.id}
                  aria-controls={`panel-${t.id}`}
                  tabIndex={app.tab() === t.id ? 0 : -1}
                  // Read as "Insights (5)"; the count is shown as a badge.
                  aria-label={
                    t.id === 'insights' && app.view()
                      ? `${t.label} (${app.view()!.insights.length})`
                      : undefined
                  }
                  onClick={() => app.setTab(t.id)}
                >
                  {t.label}
                  <Show when={t.id === 'insights' && app.view()}>
                    <span class="count">{app.view()!.insights.length}</span>
                  </Show>
                </button>
              )}
            </For>
          </div>
          <div
            role="tabpanel"
            id={`panel-${app.tab()}`}
            aria-labelledby={`tab-${app.tab()}`}
            class="tabpanel"
          >
            <Suspense fallback={<p class="hint">Loading…</p>}>
              <Switch>
                <Match when={app.tab() === 'insights'}>
                  <InsightsPanel app={app} />
                </Match>
                <Match when={app.tab() === 'snapshots'}>
                  <SnapshotPanel app={app} />
                </Match>
                <Match when={app.tab() === 'reduction'}>
                  <ReductionPanel app={app} />
                </Match>
                <Match when={app.tab() === 'playbook'}>
                  <PlaybookPanel app={app} />
                </Match>
                <Match when={app.tab() === 'learn'}>
                  <LearnPanel
                    app={app}
                    dropped={learnDrop}
                    onTaken={() => setLearnDrop(null)}
                    detector={{
                      get: () => app.settings().detector,
                      set: (detector) => app.setSettings({ ...app.settings(), detector }),
                    }}
                  />
                </Match>
              </Switch>
            </Suspense>
          </div>
        </section>
      </main>
      <footer class="footer">
        Everything runs in this page: transcripts never leave it unless you run Anthropic or Local model mode
        (then only to the server you name, and only after redaction).
      </footer>
    </div>
  );
}
