import MarkdownIt from 'markdown-it';

/** A stretch of inline text with its emphasis. */
export interface Inline {
  text: string;
  bold: boolean;
  italic: boolean;
}

/** A block of the contract as the page layout draws it. */
export type Block =
  | { kind: 'heading'; level: number; inlines: Inline[] }
  | {
      kind: 'paragraph';
      inlines: Inline[];
      /** Nesting depth: lists and block quotes indent. */
      indent: number;
      /** A list item's bullet or number, on its first paragraph only. */
      marker?: string;
      /** Inside a block quote: drawn with a bar beside it. */
      quote?: boolean;
    }
  | { kind: 'table'; header: Inline[][] | null; rows: Inline[][][]; indent: number }
  | { kind: 'code'; text: string; indent: number }
  | { kind: 'rule' };

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];

/**
 * Turns contract markdown into blocks through markdown-it's token stream (CommonMark plus tables and
 * strikethrough). Raw HTML is not interpreted: it stays visible as text, as a contract must show what it says.
 */
export function markdownBlocks(markdown: string): Block[] {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  const tokens = md.parse(markdown, {});
  const blocks: Block[] = [];
  const lists: Array<{ ordered: boolean; next: number }> = [];
  let quoteDepth = 0;
  let pendingMarker: string | undefined;
  let tableRow: Inline[][] | null = null;
  let table: { header: Inline[][] | null; rows: Inline[][][]; inHead: boolean } | null = null;

  const indent = () => lists.length + quoteDepth;
  tokens.forEach((token, index) => {
    switch (token.type) {
      case 'heading_open':
        break;
      case 'bullet_list_open':
        lists.push({ ordered: false, next: 0 });
        break;
      case 'ordered_list_open':
        lists.push({ ordered: true, next: Number(token.attrGet('start') ?? 1) });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        break;
      case 'list_item_open': {
        const list = lists[lists.length - 1];
        if (list?.ordered) {
          const number = token.info ? Number(token.info) : list.next;
          pendingMarker = `${number}${token.markup || '.'}`;
          list.next = number + 1;
        } else {
          pendingMarker = lists.length % 2 === 1 ? '\u2022' : '\u25e6';
        }
        break;
      }
      case 'blockquote_open':
        quoteDepth += 1;
        break;
      case 'blockquote_close':
        quoteDepth -= 1;
        break;
      case 'hr':
        blocks.push({ kind: 'rule' });
        break;
      case 'code_block':
      case 'fence':
        blocks.push({ kind: 'code', text: token.content.replace(/\n$/, ''), indent: indent() });
        break;
      case 'html_block':
        blocks.push({ kind: 'paragraph', inlines: plain(token.content.trim()), indent: indent() });
        break;
      case 'table_open':
        table = { header: null, rows: [], inHead: false };
        break;
      case 'thead_open':
        if (table) table.inHead = true;
        break;
      case 'thead_close':
        if (table) table.inHead = false;
        break;
      case 'table_close':
        if (table) blocks.push({ kind: 'table', header: table.header, rows: table.rows, indent: indent() });
        table = null;
        break;
      case 'tr_open':
        tableRow = [];
        break;
      case 'tr_close':
        if (tableRow && table) {
          if (table.inHead) table.header = tableRow;
          else table.rows.push(tableRow);
        }
        tableRow = null;
        break;
      case 'inline': {
        const inlines = inlineRuns(token.children ?? []);
        if (tableRow) {
          tableRow.push(inlines);
          break;
        }
        const opener = tokens[index - 1];
        if (opener?.type === 'heading_open') {
          blocks.push({ kind: 'heading', level: Number(opener.tag.slice(1)), inlines });
        } else {
          blocks.push({ kind: 'paragraph', inlines, indent: indent(), marker: pendingMarker, ...(quoteDepth > 0 ? { quote: true } : {}) });
          pendingMarker = undefined;
        }
        break;
      }
      case 'list_item_close':
        if (pendingMarker) {
          // An empty item still shows its marker.
          blocks.push({ kind: 'paragraph', inlines: [], indent: indent(), marker: pendingMarker });
          pendingMarker = undefined;
        }
        break;
      default:
        break;
    }
  });
  return blocks;
}

function plain(text: string): Inline[] {
  return [{ text, bold: false, italic: false }];
}

/** Flattens inline tokens into runs; links keep their text and show their address after it. */
function inlineRuns(children: Token[]): Inline[] {
  const runs: Inline[] = [];
  let bold = 0;
  let italic = 0;
  const links: string[] = [];
  const add = (text: string) => {
    if (!text) return;
    const style = { bold: bold > 0, italic: italic > 0 };
    const last = runs[runs.length - 1];
    if (last && last.bold === style.bold && last.italic === style.italic) last.text += text;
    else runs.push({ text, ...style });
  };
  for (const child of children) {
    switch (child.type) {
      case 'text':
      case 'code_inline':
      case 'html_inline':
        add(child.content);
        break;
      case 'softbreak':
        add(' ');
        break;
      case 'hardbreak':
        add('\n');
        break;
      case 'strong_open':
        bold += 1;
        break;
      case 'strong_close':
        bold -= 1;
        break;
      case 'em_open':
        italic += 1;
        break;
      case 'em_close':
        italic -= 1;
        break;
      case 'link_open':
        links.push(String(child.attrGet('href') ?? ''));
        break;
      case 'link_close': {
        const href = links.pop();
        if (href && !href.startsWith('#')) add(` (${href})`);
        break;
      }
      case 'image':
        add(child.content || String(child.attrGet('alt') ?? ''));
        break;
      default:
        break;
    }
  }
  return runs;
}
