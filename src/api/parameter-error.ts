import { echoValue } from '../catalog/echo-value.js';
import type { ParameterProblem } from '../catalog/query-parameters.js';
import { AppError } from './errors.js';

/** 400 INVALID_PARAMETER with details {parameter, value, reason[, allowed]} (D17, D17a). */
export function invalidParameter({
  parameter,
  value,
  reason,
  allowed,
}: ParameterProblem): AppError {
  return new AppError(
    'INVALID_PARAMETER',
    `Invalid value for parameter "${parameter}": ${reason}`,
    {
      parameter,
      value: echoValue(value),
      reason,
      ...(allowed && { allowed }),
    },
  );
}
