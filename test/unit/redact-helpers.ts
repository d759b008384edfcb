/** The fake secrets the redact tests plant: one seeded set, the same in every part of the suite. */
import { makeFakes } from '../../tools/shared/redact-fakes';

export const f = makeFakes(7);
