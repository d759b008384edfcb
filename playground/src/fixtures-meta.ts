/** How the offline answers in public/fixtures were recorded (see playground/scripts/record-fixtures.ts). */
export const RECORDED_MODEL = 'claude-haiku-4-5';
/** AgentDiet θ values with recorded compressions (a and b at their defaults, PARAM_DEFAULTS). */
export const RECORDED_THETAS = [100, 200, 300, 500];
