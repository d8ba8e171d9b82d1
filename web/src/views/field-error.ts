// Which control an API error is about, said in words: a 400 INVALID_PARAMETER names the
// parameter (docs/api.md), and every filter control is named after the parameter it sets, so the
// message goes next to that control instead of above the table as the server's sentence.
import { ApiError } from '../api';

export interface FieldError {
  /** The parameter (and so the control) the error is about. */
  readonly param: string;
  readonly message: string;
}

/** How the controls are labelled on the page, by the parameter they set. */
const LABELS: Readonly<Record<string, string>> = {
  q: 'Name contains',
  provider: 'Provider',
  city: 'Cities',
  region: 'Region',
  min_vcpu: 'Min vCPU',
  max_vcpu: 'Max vCPU',
  min_memory_gb: 'Min memory',
  max_memory_gb: 'Max memory',
  max_price: 'Max price',
  has_gpu: 'GPU',
  instance_family: 'Family',
};

/** The error as a control's message, when it names one of `params` (the view's controls). */
export function fieldError(error: unknown, params: readonly string[]): FieldError | undefined {
  if (!(error instanceof ApiError) || error.code !== 'INVALID_PARAMETER') return undefined;
  const param = error.details?.parameter;
  if (param === undefined || !params.includes(param)) return undefined;
  return { param, message: inWords(param, error.details?.value, error.details?.reason ?? '') };
}

function inWords(param: string, value: unknown, reason: string): string {
  const label = LABELS[param] ?? param;
  // "must not be greater than max_vcpu": another control's parameter, not a number.
  const other = /greater than ([a-z_]+)\b/.exec(reason)?.[1];
  if (other !== undefined && other in LABELS) {
    const otherLabel = LABELS[other] ?? other;
    return `${label} is more than ${otherLabel}, so nothing can match. Lower ${label} or raise ${otherLabel}.`;
  }
  const entered = typeof value === 'string' && value !== '' ? ` (you entered “${value}”)` : '';
  const bound = /non-negative decimal number no greater than (\d+)/.exec(reason)?.[1];
  if (bound !== undefined) {
    const limit = Number(bound).toLocaleString('en-US');
    return typeof value === 'string' && value.trim().startsWith('-')
      ? `${label} cannot be negative${entered}. Enter 0 or more, or clear it.`
      : `${label} must be a number from 0 to ${limit}${entered}.`;
  }
  if (reason.startsWith('must')) return `${label} ${reason}${entered}.`;
  return `${label}: ${reason === '' ? 'this value is not accepted' : reason}${entered}.`;
}

/** The id of a control's message, for its aria-describedby. */
export function errorId(param: string): string {
  return `f-${param}-error`;
}
