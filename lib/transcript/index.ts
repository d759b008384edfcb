/**
 * `rearview/transcript`: import conversations and agent trajectories from the formats people
 * actually have — Anthropic and OpenAI message arrays, ShareGPT, Claude Code session JSONL, console
 * transcripts and Markdown exports, aider chat histories, Codex CLI rollouts,
 * Antigravity step logs, SpecStory exports, Cline task histories,
 * Gemini CLI sessions and terminal transcripts, pasted plain text, generic JSONL, SWE-agent,
 * mini-swe-agent and ATIF trajectories — into one flat shape. Linear time, no dependencies beyond
 * `rearview/core`, every runtime.
 *
 * @module
 */
export { detectFormat } from './detect.js';
export { isAppliedEditReport, isFileEditCall, isFileEditTool, patchedFiles } from './edit-tools.js';
export { RENDERED_EDIT_TOOL } from './formats/specstory-edits.js';
export {
  agentRunFormat,
  detectTrajectoryFormat,
  parseTrajectory,
  safeParseTrajectory,
} from './trajectory/index.js';
export { parseTranscript, safeParseTranscript } from './transcript.js';
export type {
  Message,
  Outcome,
  ParseTrajectoryOptions,
  ParseTranscriptOptions,
  Role,
  SafeResult,
  SkippedItem,
  SourceRef,
  Step,
  SyntheticKind,
  Trajectory,
  TrajectoryFormat,
  Transcript,
  TranscriptFormat,
  TranscriptMeta,
} from './types.js';
