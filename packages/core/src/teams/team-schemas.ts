import { z } from 'zod';
import { fontFamily, hexColor, logoUrl, visibleText } from '../strings';
import { emailAddress } from '../email-address';

const name = visibleText(200);
const email = emailAddress();
const role = z.enum(['admin', 'editor', 'viewer'], { message: 'must be one of admin, editor, viewer' });

export const createTeamSchema = z.object({ name }).strict();
export const updateTeamSchema = z.object({ name }).strict();
export const inviteSchema = z
  .object({ email, role, language: z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'must be a language tag like en or pt-BR').optional() })
  .strict();
export const memberRoleSchema = z.object({ role }).strict();

export const brandingSchema = z
  .object({
    logo_url: logoUrl.nullable().optional(),
    primary_color: hexColor.nullable().optional(),
    background_color: hexColor.nullable().optional(),
    text_color: hexColor.nullable().optional(),
    font_family: fontFamily.nullable().optional(),
    footer_text: z.string().max(1000).nullable().optional(),
  })
  .strict();

/** Read-only fields a client may send back with a team. */
export const TEAM_READ_ONLY_FIELDS = ['id', 'slug', 'owner_id', 'created_at', 'updated_at', 'member_count', 'your_role', 'sso_domain_verify_token'];
