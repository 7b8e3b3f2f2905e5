import { h } from '../dom.js';

/*
 * The contract's markdown as DOM, for reading before signing: headings, paragraphs, bullet and numbered
 * lists (nested by indentation), block quotes, code, rules, and bold / italic / code / struck-through text.
 * Everything is built as elements and text nodes, never as HTML, so a contract cannot inject markup; raw
 * HTML and syntax this reader does not know stay visible as text (as in the sealed PDF, which renders the
 * same markdown with markdown-it).
 */

const INLINE = /\\([\\`*_{}[\]()#+\-.!>~|])|`([^`]+)`|\*\*(.+?)\*\*|__(.+?)__|~~(.+?)~~|\*(?=\S)(.+?)\*|(?<![\w])_(?=\S)(.+?)_(?![\w])|\[([^\]]+)\]\([^)\s]*\)/;

/** Inline text with its emphasis. */
export function inline(text: string): Node[] {
  const out: Node[] = [];
  let rest = text;
  for (let m = INLINE.exec(rest); m; m = INLINE.exec(rest)) {
    if (m.index) out.push(document.createTextNode(rest.slice(0, m.index)));
    const [, esc, code, b1, b2, del, i1, i2, link] = m;
    if (esc !== undefined) out.push(document.createTextNode(esc));
    else if (code !== undefined) out.push(h('code', {}, code));
    else if (b1 !== undefined || b2 !== undefined) out.push(h('strong', {}, inline(b1 ?? b2!)));
    else if (del !== undefined) out.push(h('s', {}, inline(del)));
    else if (i1 !== undefined || i2 !== undefined) out.push(h('em', {}, inline(i1 ?? i2!)));
    else out.push(...inline(link!));
    rest = rest.slice(m.index + m[0].length);
  }
  if (rest) out.push(document.createTextNode(rest));
  return out;
}

const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])\s+(.*)$/;
const indentOf = (line: string) => /^ */.exec(line)![0].length;

/** Blocks of `markdown`; headings start at `<h{level}>` (the page's own headings come first). */
export function markdown(source: string, level = 3): Node[] {
  const lines = source.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n');
  const out: Node[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push(h('p', {}, inline(para.join(' ').trim())));
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let m: RegExpExecArray | null;
    if (!line.trim()) {
      flush();
    } else if (/^ {0,3}(```|~~~)/.test(line)) {
      flush();
      const fence = line.trim().slice(0, 3);
      const code: string[] = [];
      while (++i < lines.length && !lines[i]!.trim().startsWith(fence)) code.push(lines[i]!);
      out.push(h('pre', {}, h('code', {}, code.join('\n'))));
    } else if ((m = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line))) {
      flush();
      const tag = `h${Math.min(6, level + m[1]!.length - 1)}` as 'h3';
      out.push(h(tag, {}, inline(m[2]!)));
    } else if (/^ {0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flush();
      out.push(h('hr'));
    } else if (/^ {0,3}>/.test(line)) {
      flush();
      const quoted: string[] = [];
      for (; i < lines.length && /^ {0,3}>/.test(lines[i]!); i++) quoted.push(lines[i]!.replace(/^ {0,3}> ?/, ''));
      i--;
      out.push(h('blockquote', {}, markdown(quoted.join('\n'), level)));
    } else if ((m = ITEM.exec(line)) && !(para.length && !/^1[.)]$|^[-*+]$/.test(m[2]!))) {
      flush();
      const ordered = /\d/.test(m[2]!);
      const list = h(ordered ? 'ol' : 'ul', ordered && parseInt(m[2]!, 10) !== 1 ? { start: parseInt(m[2]!, 10) } : {});
      // Each item: its first line and the lines indented under it (blank lines allowed between).
      while (i < lines.length && (m = ITEM.exec(lines[i]!)) && /\d/.test(m[2]!) === ordered) {
        const body = [m[3]!];
        const inner = m[1]!.length + m[2]!.length + 1;
        while (i + 1 < lines.length && (indentOf(lines[i + 1]!) >= inner || (!lines[i + 1]!.trim() && i + 2 < lines.length && indentOf(lines[i + 2]!) >= inner))) {
          body.push(lines[++i]!.slice(inner));
        }
        list.append(h('li', {}, markdown(body.join('\n'), level)));
        i++;
      }
      i--;
      out.push(list);
    } else {
      para.push(line);
    }
  }
  flush();
  return out;
}
