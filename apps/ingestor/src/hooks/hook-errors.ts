import { parameterInvalid, type ApiError } from '@graph-history/http';

export const invalidHookBody = (): ApiError =>
  parameterInvalid(
    null,
    'Send one Claude Code hook payload: a JSON object as the hook received it.',
  );

export const unusableHook = (param: string, message: string): ApiError =>
  parameterInvalid(param, message);
