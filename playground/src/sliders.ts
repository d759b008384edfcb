/**
 * The Tune panel's sliders: every parameter of rearview/snapshot's PARAM_SPECS, grouped as the panel
 * shows them. Ranges, steps, labels and help are the library's, so the sliders, the URL and the CLI agree.
 */
import { PARAM_NAMES, PARAM_SPECS, type ParamSpec } from 'rearview/snapshot';

export interface SliderGroup {
  legend: string;
  specs: readonly ParamSpec[];
}

const specsWhere = (keep: (spec: ParamSpec) => boolean) =>
  PARAM_NAMES.map((n) => PARAM_SPECS[n]).filter(keep);

export const SLIDER_GROUPS: readonly SliderGroup[] = [
  { legend: 'Active-context snapshot', specs: specsWhere((s) => s.group !== 'diet') },
  { legend: 'Trajectory reduction', specs: specsWhere((s) => s.group === 'diet') },
];
