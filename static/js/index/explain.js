// explain.js - the page's prose that depends on the swizzle on screen: the
// "How to read this" entries for the tile and the colours, and the grid
// panel's line, in the words slotrule.js gives the API's slot_rule. It must
// not decide which rule holds (the server names it) nor compute a slot.

import { readWords } from './slotrule.js';
import { setText } from '../kit/dom.js';

const $ = (id) => document.getElementById(id);

// d: the /api/swizzle answer on screen.
export function renderExplain(d) {
    const w = readWords(d.slot_rule, d.tile.size);
    setText($('readme-tile'), w.tile);
    setText($('readme-colours'), w.colours);
    setText($('grid-desc'), w.grid);
}
