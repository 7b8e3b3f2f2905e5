/** The theme's fields as the theme editor groups and names them (packages/core/src/domain/form-fields.ts). */

export const COLORS: Array<[string, string, string]> = [
  ['theme_color', 'Accent', '#6366f1'],
  ['background_color', 'Background', '#0a0a0a'],
  ['text_color', 'Text', '#f5f5f5'],
  ['title_color', 'Question titles', '#f5f5f5'],
  ['description_color', 'Descriptions', '#a3a3a3'],
  ['answer_text_color', 'Answers', '#f5f5f5'],
  ['placeholder_color', 'Placeholders', '#737373'],
  ['option_text_color', 'Choice text', '#f5f5f5'],
  ['button_color', 'Buttons', '#6366f1'],
  ['button_text_color', 'Button text', '#ffffff'],
  ['indicator_bg_color', 'Choice letters: background', '#262626'],
  ['indicator_text_color', 'Choice letters: text', '#f5f5f5'],
];

export const FONTS: Array<[string, string]> = [
  ['font_family', 'Questions and titles'],
  ['font_family_description', 'Descriptions'],
  ['font_family_answer', 'Answers'],
  ['font_family_option', 'Choices'],
  ['font_family_button', 'Buttons'],
  ['font_family_indicator', 'Choice letters'],
];

/** Font stacks that need no download (the page's CSP allows no font host by default). */
export const FONT_STACKS: Array<[string, string]> = [
  ['', 'Default'],
  ['system-ui, sans-serif', 'System'],
  ['Helvetica, Arial, sans-serif', 'Helvetica / Arial'],
  ['Georgia, serif', 'Georgia'],
  ['"Times New Roman", Times, serif', 'Times'],
  ['Verdana, Geneva, sans-serif', 'Verdana'],
  ['"Trebuchet MS", sans-serif', 'Trebuchet'],
  ['"Courier New", monospace', 'Courier (monospace)'],
];

export const HEX = /^#[0-9a-fA-F]{6}$/;
export const SIZE = /^\d+(\.\d+)?(px|rem|em|%)$/;
export const FONT = /^[A-Za-z0-9 ,"'-]{1,200}$/;
