/**
 * `rearview/playbook`: the playbook data model (seed 001) — sections, key points with grow-only
 * helpful/harmful counters, reflector bullet tags and curator delta operations. Persistence lives in
 * `rearview/store` (`playbookStore`).
 *
 * @module
 */
export {
  type AddOperation,
  type AppliedOperation,
  type ApplyDeltaOptions,
  type ApplyTagsOptions,
  applyBulletTags,
  applyDelta,
  type BulletTag,
  BulletTagSchema,
  cloneJson,
  type DeltaOperation,
  DeltaOperationSchema,
  type DeltaResult,
  describeIssues,
  emptyPlaybook,
  formatKeyPointId,
  type HighWater,
  highWaterOf,
  isLegacyId,
  type KeyPoint,
  KeyPointSchema,
  type MergeOperation,
  type Playbook,
  PlaybookSchema,
  parseKeyPointId,
  type RemoveOperation,
  SECTION_NAMES,
  SECTION_SLUGS,
  type SectionName,
  type SectionSlug,
  type TagTally,
  type TagValue,
  tallyBulletTags,
  type UpdateOperation,
} from './model.js';
