/**
 * The Learn tab's save row: the accepted rules into a playbook, this browser's (IndexedDB) or a shared
 * one behind a `rearview/durable` URL (save.ts, loaded when the person saves), and what the save did.
 */
import type { LearnedRule } from 'rearview/learn';
import { createSignal, Show } from 'solid-js';

export default function SaveAccepted(props: { accepted: () => LearnedRule[] }) {
  const [shareUrl, setShareUrl] = createSignal('');
  const [saved, setSaved] = createSignal('');
  const [saving, setSaving] = createSignal(false);

  const save = async () => {
    const rules = props.accepted();
    if (!rules.length) {
      setSaved('Accept a rule first.');
      return;
    }
    setSaving(true);
    setSaved('');
    try {
      const { saveRules } = await import('./save');
      const url = shareUrl().trim();
      const r = await saveRules(rules, url ? { kind: 'shared', url } : { kind: 'browser' });
      setSaved(
        `Saved ${r.added} key point${r.added === 1 ? '' : 's'} to the ${url ? 'shared' : "browser's"} playbook` +
          ` (version ${r.version}); ${r.repeats} already there${r.rejected ? `, ${r.rejected} refused` : ''}.`,
      );
    } catch (err) {
      setSaved(`Not saved: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <div class="row">
        <button type="button" data-testid="learn-save" disabled={saving()} onClick={save}>
          Save accepted into the playbook
        </button>
        <input
          type="url"
          class="learn-share"
          placeholder="shared playbook URL (rearview/durable), empty = this browser"
          aria-label="Shared playbook URL"
          data-testid="learn-share-url"
          value={shareUrl()}
          onInput={(e) => setShareUrl(e.currentTarget.value)}
        />
      </div>
      <Show when={saved()}>
        <p class="hint" role="status" data-testid="learn-saved">
          {saved()}
        </p>
      </Show>
    </>
  );
}
