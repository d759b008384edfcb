/**
 * Placeholder links (lib/snapshot/placeholder.ts): hosts and paths left to fill in are no evidence;
 * real hosts, route parameters, and the documentation example domains tests and demos use for real
 * links, stay.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deterministicSnapshot, deterministicSnapshotWithTrace } from '../../lib/snapshot/index';
import { isPlaceholderLink } from '../../lib/snapshot/placeholder';
import { notesInput } from '../fixtures/notes-input';

const notes = (values: string[]) => notesInput(values, 'deploy the app');

describe('isPlaceholderLink', () => {
  it("reads hosts that ask for the reader's own", () => {
    for (const link of [
      'https://your-project.firebaseio.com',
      'https://your-domain.com/api/v1',
      'https://YOUR_PRODUCTION_URL',
      'https://yourdomain.com',
      'https://your-api-id.execute-api.us-east-1.amazonaws.com/dev',
      'https://<host>/api',
      'http://{server}:3000',
    ])
      expect(isPlaceholderLink(link), link).toBe(true);
  });

  it('keeps real hosts, local ones, the documentation example domains and anything but an http(s) URL', () => {
    for (const link of [
      'https://example.com',
      'https://ci.example.com/run/7',
      'https://github.com/ana/app',
      'http://localhost:3000',
      'http://127.0.0.1:8788/blog',
      'https://examples.com',
      'https://example.com.au',
      'https://counterexample.com',
      'https://youtube.com/watch',
      'https://docs.yourls.org',
      'src/example.com.ts',
      'example.com',
      'https://',
    ])
      expect(isPlaceholderLink(link), link).toBe(false);
  });

  it('never throws and reads a host once (property)', () => {
    fc.assert(fc.property(fc.string(), (s) => typeof isPlaceholderLink(`https://${s}`) === 'boolean'));
    expect(isPlaceholderLink(`https://${'a.'.repeat(50_000)}your-app.com`)).toBe(true);
  });
});

describe('isPlaceholderLink on paths', () => {
  it('reads path/to/, a name asking for yours and a run of x', () => {
    for (const link of [
      'path/to/file',
      '/path/to/your/project',
      'C:\\path\\to\\app.exe',
      'https://github.com/your-username/your-repo-name.git',
      'https://github.com/yourusername/app.git',
      '/home/YOUR_USER/app',
      '/Users/xxx/demo',
      'feat/xxx/',
    ])
      expect(isPlaceholderLink(link), link).toBe(true);
  });

  it('keeps real names that start like one', () => {
    for (const link of [
      'src/your.ts',
      'docs/yourls.md',
      'https://youtube.com/watch',
      'lib/paths/to/a.ts',
      'xpath/to/a',
      'a/xx/b',
      'src/xxx.ts',
      'your-first-app.md',
      // A route's parameter is a real place; a sentence is not a link.
      '/booking/<id>/reschedule',
      '/users/{id}',
      'Run the script on path/to/file first.',
    ])
      expect(isPlaceholderLink(link), link).toBe(false);
  });
});

describe('the snapshot', () => {
  it('lists no placeholder link as evidence, and traces why', () => {
    const values = [
      'Set the API base to https://your-domain.com/api/v1 in .env.',
      'https://YOUR_PRODUCTION_URL',
      'Deployed to https://shop-ana.vercel.app',
      'See https://github.com/ana/shop/pull/12',
    ];
    const t = deterministicSnapshotWithTrace(notes(values));
    expect(t.snapshot.requiredEvidenceLinks).not.toContain('https://YOUR_PRODUCTION_URL');
    expect(t.snapshot.requiredEvidenceLinks).not.toContain('https://your-domain.com/api/v1');
    expect(t.snapshot.requiredEvidenceLinks).toContain('https://shop-ana.vercel.app');
    expect(t.dropped.filter((d) => d.reason === 'placeholder').map((d) => d.text)).toEqual([
      'https://your-domain.com/api/v1',
      'https://YOUR_PRODUCTION_URL',
    ]);
    // The other lists read the entries as before.
    expect(deterministicSnapshot(notes(values)).nextActions).toEqual(t.snapshot.nextActions);
  });
});
