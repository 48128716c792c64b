import { z } from 'zod';
import { GuildParams } from '../../common.ts';
import { NOT_BLANK, SerialIdParam, storableText } from '../../inputs.ts';
import { unknownKeys } from './fields.ts';

/**
 * Level reward roles: the stored role, its path params, and the bodies that create and update one.
 */

export const LevelingRole = z
  .object({
    id: z.number().int(),
    role_name: z.string().max(100),
    level_required: z.number().int().min(0),
    is_image_role: z.boolean(),
    role_id: z.string().nullable(),
    /** Ranked members whose level gives them this reward under the reward mode (what deleting it takes away). */
    holders: z.number().int().min(0),
  })
  .meta({ id: 'LevelingRole' });
export type LevelingRole = z.infer<typeof LevelingRole>;

export const LevelingRoleParams = GuildParams.extend({ roleId: SerialIdParam });

const ROLE_NAME_BLANK = 'Role name cannot be blank';
const ROLE_NAME_TEXT = 'Role name must be text';
const LEVEL_REQUIRED = 'Level required must be a whole number from 0 to 1000';
const LevelRequired = z
  .number({ error: LEVEL_REQUIRED })
  .int(LEVEL_REQUIRED)
  .min(0, LEVEL_REQUIRED)
  .max(1000, LEVEL_REQUIRED);
const IsImageRole = z.boolean({ error: 'is_image_role must be true or false' });
const REWARD_NOT_OBJECT = 'A reward role must be a JSON object';
export const CreateLevelingRoleBody = z
  .object(
    {
      role_name: storableText({ error: ROLE_NAME_TEXT })
        .regex(NOT_BLANK, ROLE_NAME_BLANK)
        .trim()
        .min(1, ROLE_NAME_BLANK)
        .max(100, 'Role name is at most 100 characters')
        .default('Level Reward'),
      level_required: LevelRequired.default(1),
      is_image_role: IsImageRole.default(false),
    },
    { error: REWARD_NOT_OBJECT },
  )
  .meta({ id: 'CreateLevelingRoleBody' });
export const UpdateLevelingRoleBody = z.strictObject(
  {
    role_name: storableText({ error: ROLE_NAME_TEXT })
      .regex(NOT_BLANK, ROLE_NAME_BLANK)
      .trim()
      .min(1, ROLE_NAME_BLANK)
      .max(100, 'Role name is at most 100 characters')
      .optional(),
    level_required: LevelRequired.optional(),
    is_image_role: IsImageRole.optional(),
  },
  { error: unknownKeys(REWARD_NOT_OBJECT) },
);
