/**
 * What the harnesses write when the person declines or stops a tool call, one of each kind: Claude
 * Code's rejection and interruption (JSONL and console), the later consoles' notices and rejected
 * edits and plans, Cline's declined call, a SpecStory (Cursor) export's stopped call. `rearview/core`'s
 * `declinedCall` and `rearview/heuristic`'s `reportsInterrupt` keep two lists of them (the heuristic
 * entry's 8 KB cannot hold core's); the tests read this one, so the two are held to the same notices.
 */
export const DECLINED_NOTICES: readonly string[] = [
  "The user doesn't want to proceed with this tool use. The tool use was rejected.",
  '[Request interrupted by user for tool use]',
  'No (tell Claude what to do differently)',
  'Interrupted by user',
  'Interrupted · What should Claude do instead?',
  'User rejected update to pyproject.toml',
  'User rejected write to tests/Unit/GeocoderServiceTest.php',
  "User rejected Claude's plan:\n╭───╮\n│ Plan: add the footer │",
  "[execute_command for 'npm test'] Result:\nThe user denied this operation.",
  'Cancelled',
];
