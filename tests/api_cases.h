/* api_cases.h - the table of good and malformed API requests shared by
 * test_api (through the handler) and test_http (over a real socket): each
 * with the status and a piece of the body it must produce. */
#ifndef SZ_API_CASES_H
#define SZ_API_CASES_H

#include <stddef.h>

#define JSON "application/json"

static const struct api_case {
    const char *method, *path, *query, *ctype, *body;
    int status;
    const char *want;   /* substring of the body */
} cases[] = {
    /* good requests */
    {"GET", "/api/health", "", NULL, NULL, 200, "\"ok\":true"},
    {"HEAD", "/api/health", "", NULL, NULL, 200, "\"ok\":true"},
    {"GET", "/api/presets", "", NULL, NULL, 200, "\"128B-32Bunit\""},
    {"GET", "/api/presets", "", NULL, NULL, 200, "\"b\":2,\"m\":5,\"s\":2"},
    {"GET", "/api/presets", "", NULL, NULL, 200,
     "\"limits\":{\"b\":{\"min\":0,\"max\":10},\"m\":{\"min\":0,\"max\":30},"
     "\"s\":{\"min\":-30,\"max\":30},\"bank_bytes\":{\"min\":1,\"max\":32,\"pow2\":true},"
     "\"banks\":{\"min\":1,\"max\":128,\"pow2\":true},\"rows\":{\"min\":1,\"max\":1048576},"
     "\"bytes\":{\"min\":1,\"max\":16,\"pow2\":true}}"},
    {"GET", "/api/ops", "", NULL, NULL, 200, "\"name\":\"ldmatrix\",\"ptx\":\"ldmatrix.sync.aligned.m8n8\""},
    {"GET", "/api/ops", "x=1", NULL, NULL, 400, "\"field\":\"x\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=3", NULL, NULL, 200, "\"name\":\"Swizzle<3,4,3>\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=3", NULL, NULL, 200, "\"yyy\":896,\"zzz\":112"},
    {"GET", "/api/swizzle", "b=0&m=4&s=3&rows=2", NULL, NULL, 200,
     "\"log_of\":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]"},
    {"GET", "/api/swizzle", "b=2&m=4&s=-3&rows=4", NULL, NULL, 200, "\"s\":-3"},
    {"GET", "/api/swizzle", "b=2&m=5&s=2&match_bank_row=1&rows=4", NULL, NULL, 200,
     "\"cols\":4"},
    {"GET", "/api/swizzle", "b=1&m=1&s=2&bank_bytes=8&banks=16&rows=2", NULL, NULL, 200,
     "\"per_bank\":4"},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=1&col=2", NULL, NULL, 200,
     "\"physical\":{\"row\":1,\"col\":3,\"unit\":11,\"addr\":176,\"hex\":\"0xb0\""},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=1&col=2", NULL, NULL, 200,
     "\"list\":[12,13,14,15]"},
    /* a bank cell (issue 27.8): logical (1,2) is byte 160, physical 176 (banks 12-15);
     * bank 13 holds bytes 180-183, bytes 4-7 of the unit, logical 164-167: byte 36 of
     * row 1, fp16 elements 18 and 19 */
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=1&col=2&bank=13&elem_bytes=2", NULL, NULL, 200,
     "\"bank_cell\":{\"map\":\"swizzled\",\"bank\":13,\"bank_row\":1,\"bank_bytes\":4,"
     "\"unit_bytes\":16,\"word\":{\"lo\":0,\"hi\":4},\"unit\":{\"lo\":4,\"hi\":8},"
     "\"physical\":{\"lo\":180,\"hi\":184},\"logical\":{\"lo\":164,\"hi\":168},"
     "\"plain\":{\"bank\":9,\"bank_row\":1,\"word\":{\"lo\":0,\"hi\":4}},"
     "\"swizzled\":{\"bank\":13,\"bank_row\":1,\"word\":{\"lo\":0,\"hi\":4}},"
     "\"elements\":{\"bytes\":2,\"first\":18,\"last\":19,\"byte_lo\":0}}"},
    /* the same bytes clicked on the plain map: logical 164 is bank 41 % 32 = 9 */
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=1&col=2&bank=9&map=plain", NULL, NULL, 200,
     "\"bank_cell\":{\"map\":\"plain\",\"bank\":9,\"bank_row\":1,\"bank_bytes\":4,"
     "\"unit_bytes\":16,\"word\":{\"lo\":0,\"hi\":4},\"unit\":{\"lo\":4,\"hi\":8}"},
    /* byte 13 of the same unit: physical 189, bank 15 of bank row 1, bytes 12-15 of the unit */
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=1&col=2&byte=13", NULL, NULL, 200,
     "\"bank_cell\":{\"map\":\"swizzled\",\"bank\":15,\"bank_row\":1,\"bank_bytes\":4,"
     "\"unit_bytes\":16,\"word\":{\"lo\":0,\"hi\":4},\"unit\":{\"lo\":12,\"hi\":16}"},
    /* Swizzle<1,1,2>, 2-byte units: logical (1,3) is byte 14 = 0b1110, bit 3 into bit 1:
     * 12, bytes 0-1 of bank 3's word (unswizzled: bytes 2-3 of the same word); byte 6 of
     * its row: bytes 2-3 of fp32 element 1 */
    {"GET", "/api/inspect", "b=1&m=1&s=2&rows=4&row=1&col=3&bank=3&elem_bytes=4", NULL, NULL, 200,
     "\"word\":{\"lo\":0,\"hi\":2},\"unit\":{\"lo\":0,\"hi\":2},\"physical\":{\"lo\":12,"
     "\"hi\":14},\"logical\":{\"lo\":14,\"hi\":16},\"plain\":{\"bank\":3,\"bank_row\":0,"
     "\"word\":{\"lo\":2,\"hi\":4}},\"swizzled\":{\"bank\":3,\"bank_row\":0,\"word\":{\"lo\":0,"
     "\"hi\":2}},\"elements\":{\"bytes\":4,\"first\":1,\"last\":1,\"byte_lo\":2}"},
    {"POST", "/api/apply", "", "application/json; charset=utf-8",
     "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[0,128,1023]}", 200, "\"swizzled\":[0,144,911]"},
    {"POST", "/api/apply", "", "application/json",
     "{\"b\":2,\"m\":4,\"s\":-3,\"offsets\":[16,48]}", 200, "\"swizzled\":[144,432]"},
    {"POST", "/api/apply", "", "application/json",
     "{\"offsets\":[],\"b\":0,\"m\":0,\"s\":0}", 200, "\"swizzled\":[]"},
    {"POST", "/api/apply", "", "application/json",
     " {\"b\":1,\"m\":4,\"s\":3,\"offsets\":[1e2, 128.0, 2147483647]} \n", 200,
     "\"swizzled\":[100,144,2147483631]"},
    /* 2147483647 has bit 7 set, so <1,4,3> flips bit 4: 2^31 - 1 - 16 */

    /* access patterns on a layout.  Seed 001's transpose read (4-byte elements,
     * 128-byte rows): n ^ m is Swizzle<4,2,5> (row bits 7..10 into word bits
     * 2..5), n ^ 2m is Swizzle<4,3,4> (into bits 3..6): 16, 2 and 1 wavefronts. */
    {"GET", "/api/access", "b=0&m=2&s=5&rows=16&pattern=transpose_read&step=3", NULL, NULL,
     200, "\"wavefronts\":16,"},
    {"GET", "/api/access", "b=4&m=2&s=5&rows=16&pattern=transpose_read&step=3", NULL, NULL,
     200, "\"wavefronts\":2,"},
    {"GET", "/api/access", "b=4&m=3&s=4&rows=16&pattern=transpose_read&step=3", NULL, NULL,
     200, "\"wavefronts\":1,"},
    /* seed 004: ldmatrix.x4 on 128-byte rows, 32 unswizzled, 4 with <3,4,3> */
    {"GET", "/api/access", "b=0&m=4&s=3&rows=8&pattern=ldmatrix_x4", NULL, NULL, 200,
     "\"wavefronts\":32,"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&pattern=ldmatrix_x4&step=1", NULL, NULL, 200,
     "\"wavefronts\":4,"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&pattern=row_store&step=7", NULL, NULL, 200,
     "\"steps\":8,"},
    /* the default grid: one tile height, raised to 8 rows (a column read on the
     * None preset is the peer page's 8-way conflict, not a 1-row broadcast) */
    {"GET", "/api/swizzle", "b=0&m=4&s=3", NULL, NULL, 200, "\"rows\":8,\"cols\":8,"},
    {"GET", "/api/swizzle", "b=4&m=4&s=4", NULL, NULL, 200, "\"rows\":16,\"cols\":16,"},
    {"GET", "/api/access", "b=0&m=4&s=3&pattern=col_read", NULL, NULL, 200,
     "\"wavefronts\":8,"},
    /* offsets: space=logical applies the view's swizzle: a column of 128-byte rows
     * on <3,4,3> (32 lanes, 32 rows) is 4-way, taken as physical 32-way */
    {"GET", "/api/access", "b=3&m=4&s=3&rows=32&space=logical&offsets=0,128,256,384,512,640,"
     "768,896,1024,1152,1280,1408,1536,1664,1792,1920,2048,2176,2304,2432,2560,2688,2816,2944,"
     "3072,3200,3328,3456,3584,3712,3840,3968", NULL, NULL, 200, "\"offsets\":[0,144,288,432,"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&pattern=col_read", NULL, NULL, 200,
     "\"logical\":[0,128,256,384,512,640,768,896,0,"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=32&space=logical&offsets=0,128,256,384,512,640,"
     "768,896,1024,1152,1280,1408,1536,1664,1792,1920,2048,2176,2304,2432,2560,2688,2816,2944,"
     "3072,3200,3328,3456,3584,3712,3840,3968", NULL, NULL, 200, "\"wavefronts\":4,"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=32&space=physical&offsets=0,128,256,384,512,640,"
     "768,896,1024,1152,1280,1408,1536,1664,1792,1920,2048,2176,2304,2432,2560,2688,2816,2944,"
     "3072,3200,3328,3456,3584,3712,3840,3968", NULL, NULL, 200, "\"wavefronts\":32,"},
    {"GET", "/api/access", "b=3&m=4&s=3&pattern=col_read&space=logical", NULL, NULL, 400,
     "\"field\":\"space\""},
    {"GET", "/api/access", "b=3&m=4&s=3&space=both&offsets=0,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,"
     "-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-", NULL, NULL, 400, "\"field\":\"space\""},
    /* fit=1: a pattern that does not fit the view is an answer with the one value
     * that would fit; an unknown pattern is still refused */
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&pattern=transpose_read&fit=1", NULL, NULL, 200,
     "\"fits\":false,\"why\":{\"code\":\"invalid_argument\",\"field\":\"rows\""},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&pattern=transpose_read&fit=1", NULL, NULL, 200,
     "\"fix\":{\"field\":\"rows\",\"value\":16}"},
    {"GET", "/api/access", "b=3&m=0&s=3&pattern=col_read&fit=1", NULL, NULL, 200,
     "\"fix\":{\"field\":\"m\",\"value\":2}"},
    {"GET", "/api/access", "b=3&m=4&s=1&pattern=col_read&fit=1", NULL, NULL, 200,
     "\"fix\":{\"field\":\"s\",\"value\":3}"},
    {"GET", "/api/access", "b=3&m=4&s=3&pattern=col_read&fit=1", NULL, NULL, 200,
     "\"fits\":true,"},
    {"GET", "/api/access", "b=3&m=4&s=3&pattern=nope&fit=1", NULL, NULL, 400,
     "\"field\":\"pattern\""},
    {"GET", "/api/access", "b=3&m=4&s=3&pattern=col_read&fit=2", NULL, NULL, 400,
     "\"field\":\"fit\""},
    /* compare: the same logical access on other swizzles (seed 004: 32 -> 4) */
    {"GET", "/api/access", "b=3&m=4&s=3&pattern=ldmatrix_x4&compare=0,4,3;3,4,3;3,0,3", NULL,
     NULL, 200, "\"compare\":{\"unswizzled\":{\"wavefronts\":32,"},
    {"GET", "/api/access", "b=3&m=4&s=3&pattern=ldmatrix_x4&compare=0,4,3;3,4,3;3,0,3", NULL,
     NULL, 200, "{\"b\":3,\"m\":4,\"s\":3,\"wavefronts\":4,"},
    {"GET", "/api/access", "b=3&m=4&s=3&pattern=ldmatrix_x4&compare=0,4,3;3,4,3;3,0,3", NULL,
     NULL, 200, "\"s\":3,\"error\":\"its 1-byte units are narrower than the 16-byte accesses\"}],\"best\":1}"},
    {"GET", "/api/access", "b=3&m=4&s=3&pattern=col_read&compare=1,2", NULL, NULL, 400,
     "\"field\":\"compare\""},
    {"GET", "/api/patterns", "", NULL, NULL, 200, "\"name\":\"transpose_read\""},
    {"GET", "/api/patterns", "", NULL, NULL, 200,
     "{\"name\":\"stmatrix_x4\",\"op\":\"stmatrix\",\"label\":"},
    /* col_read_128: lane t reads chunk 0 of row t % 8; <3,4,3> moves row r's chunk to
     * column r, 144 bytes apart: 4 phases of 8 lanes, each clean.  Unswizzled all 8
     * rows sit on banks 0-3: 8-way, 32 wavefronts. */
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&pattern=col_read_128", NULL, NULL, 200,
     "\"offsets\":[0,144,288,432,576,720,864,1008,0,"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&pattern=col_read_128", NULL, NULL, 200,
     "\"wavefronts\":4,"},
    {"GET", "/api/access", "b=0&m=4&s=3&rows=8&pattern=col_read_128", NULL, NULL, 200,
     "\"ways\":8,"},
    /* row_load_64 step 3: 768 + 8t; 768 is row 6, whose units move by 6 ^ c: 864 */
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&pattern=row_load_64&step=3", NULL, NULL, 200,
     "\"offsets\":[864,872,880,888,832,"},
    /* stmatrix_x4 step 3 on 16 rows of 128 B: block (rb 1, kb 1): lane 0 at row 8, byte
     * 64 (row 8 is unswizzled); lane 1 at row 9, chunk 4 ^ 1 = 5: 1152 + 80 */
    {"GET", "/api/access", "b=3&m=4&s=3&rows=16&pattern=stmatrix_x4&step=3", NULL, NULL, 200,
     "\"offsets\":[1088,1232,"},
    /* custom expressions: seed 001's transpose read written out, on an
     * unswizzled 128-byte-row grid (16 wavefronts) and through swz() with
     * Swizzle<4,3,4> (n ^ 2m: 1 wavefront) */
    {"GET", "/api/access", "b=0&m=2&s=5&rows=16&expr=4*(32*(t%16)+2*r+t/16)&steps=16&step=2",
     NULL, NULL, 200, "\"wavefronts\":16,"},
    {"GET", "/api/access", "b=4&m=3&s=4&rows=16&expr=swz(4*(32*(t%16)+2*r+t/16))&steps=16",
     NULL, NULL, 200, "\"wavefronts\":1,"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&expr=swz(128*(t%8)+16*(t/8))&op=ldmatrix",
     NULL, NULL, 200, "\"wavefronts\":4,"},
    {"GET", "/api/access", "b=3&m=4&s=3&expr=16*t&bytes=16", NULL, NULL, 200,
     "\"pattern\":\"custom\""},
    {"GET", "/api/access", "b=3&m=4&s=3&expr=4*t+(", NULL, NULL, 400, "at column"},
    {"GET", "/api/access", "b=3&m=4&s=3&expr=t-1", NULL, NULL, 400,
     "lane 0 at step 0 gives offset -1"},
    {"GET", "/api/access", "b=3&m=4&s=3&expr=t/0", NULL, NULL, 400, "\"field\":\"expr\""},
    {"GET", "/api/access", "b=3&m=4&s=3&expr=2*t&bytes=4", NULL, NULL, 400, "aligned"},
    {"GET", "/api/access", "b=3&m=4&s=3&expr=4*t&op=lds", NULL, NULL, 400,
     "\"field\":\"op\""},
    {"GET", "/api/access", "b=3&m=4&s=3&expr=4*t&pattern=row_store", NULL, NULL, 400,
     "not both"},
    {"GET", "/api/access", "b=3&m=4&s=3&pattern=row_store&bytes=8", NULL, NULL, 400,
     "goes with expr"},
    {"GET", "/api/access", "b=3&m=4&s=3&expr=4*r&step=3&steps=2", NULL, NULL, 400,
     "\"field\":\"step\""},

    {"GET", "/api/access", "b=3&m=4&s=3", NULL, NULL, 400, "\"field\":\"pattern\""},
    {"GET", "/api/access", "b=3&m=4&s=3&pattern=zigzag", NULL, NULL, 400,
     "\"field\":\"pattern\""},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&pattern=row_store&step=8", NULL, NULL, 400,
     "must be in 0..7"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&pattern=transpose_read", NULL, NULL, 400,
     "at least 16 grid rows"},
    {"GET", "/api/access", "b=3&m=2&s=3&rows=64&pattern=row_load_128", NULL, NULL, 400,
     "Use M >= 4"},

    /* the offsets form: 32 lanes read words 0..31 (row 0, unswizzled in any case): one
     * wavefront, 4 lanes in each of the 8 16-byte slots of row 0 */
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&offsets=0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,96,100,104,108,112,116,120,124", NULL, NULL, 200,
     "\"pattern\":\"offsets\",\"step\":0,\"steps\":1,"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&offsets=0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,96,100,104,108,112,116,120,124", NULL, NULL, 200,
     "\"cells\":{\"slots\":[{\"slot\":0,\"logical\":0,\"phase\":0,\"lanes\":[0,1,2,3]},{\"slot\":1,\"logical\":1,\"phase\":0,\"lanes\":[4,5,6,7]},"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&offsets=0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,96,100,104,108,112,116,120,124", NULL, NULL, 200,
     "\"wavefronts\":1,"},
    /* cells of a named pattern: row r's chunk 0 is in slot 9r (logical 8r), read by
     * lanes r, r+8, r+16, r+24 (32 lanes over 8 rows) */
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&pattern=col_read_128", NULL, NULL, 200,
     "\"cells\":{\"slots\":[{\"slot\":0,\"logical\":0,\"phase\":0,\"lanes\":[0,8,16,24]},{\"slot\":9,\"logical\":8,\"phase\":0,\"lanes\":[1,9,17,25]},"},
    /* an access past the 1024-byte grid is outside; - and null are idle lanes */
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&offsets=1024,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null", NULL, NULL, 200,
     "\"cells\":{\"slots\":[],\"outside\":1}"},
    /* a 16-byte read over a grid of two 4-byte units is cut at the grid's end */
    {"GET", "/api/access", "b=0&m=2&s=1&rows=1&bytes=16&offsets=0,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-", NULL, NULL, 200,
     "\"cells\":{\"slots\":[{\"slot\":0,\"logical\":0,\"phase\":0,\"lanes\":[0]},{\"slot\":1,\"logical\":1,\"phase\":0,\"lanes\":[0]}],\"outside\":0}"},
    /* offsets errors name the field and the lane */
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&offsets=0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,96,100,104,108,112,116,120", NULL, NULL, 400,
     "\"field\":\"offsets\",\"message\":\"exactly 32 byte offsets, comma-separated"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&offsets=0,4,8,x,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,96,100,104,108,112,116,120,124", NULL, NULL, 400,
     "\"field\":\"offsets\",\"message\":\"lane 3: 'x'"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&offsets=0,4,8,+12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,96,100,104,108,112,116,120,124", NULL, NULL, 400,
     "\"field\":\"offsets\",\"message\":\"lane 3:"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&offsets=0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,96,100,104,108,112,116,120,", NULL, NULL, 400,
     "\"field\":\"offsets\",\"message\":\"lane 31:"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&offsets=2147483648,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,96,100,104,108,112,116,120,124", NULL, NULL, 400,
     "\"field\":\"offsets\",\"message\":\"lane 0:"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&offsets=0,4,8,12,16,6,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,96,100,104,108,112,116,120,124", NULL, NULL, 400,
     "\"field\":\"offsets\",\"message\":\"lane 5: a 4-byte access must be 4-byte aligned"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&op=ldmatrix&offsets=0,16,32,null,64,80,96,112,128,144,160,176,192,208,224,240,256,272,288,304,320,336,352,368,384,400,416,432,448,464,480,496", NULL, NULL, 400,
     "\"field\":\"offsets\",\"message\":\"lane 3: ldmatrix.x4 is warp-wide"},
    /* matrix ops default to 16 bytes x4 */
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&op=ldmatrix&offsets=0,16,32,48,64,80,96,112,128,144,160,176,192,208,224,240,256,272,288,304,320,336,352,368,384,400,416,432,448,464,480,496", NULL, NULL, 200,
     "\"op\":\"ldmatrix\",\"bytes\":16,\"matrices\":4,"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&op=ldmatrix&step=1&offsets=0,16,32,48,64,80,96,112,128,144,160,176,192,208,224,240,256,272,288,304,320,336,352,368,384,400,416,432,448,464,480,496", NULL, NULL, 400,
     "\"field\":\"step\""},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&steps=2&offsets=0,16,32,48,64,80,96,112,128,144,160,176,192,208,224,240,256,272,288,304,320,336,352,368,384,400,416,432,448,464,480,496", NULL, NULL, 400,
     "\"field\":\"steps\""},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&pattern=row_store&offsets=0,16,32,48,64,80,96,112,128,144,160,176,192,208,224,240,256,272,288,304,320,336,352,368,384,400,416,432,448,464,480,496", NULL, NULL, 400,
     "\"field\":\"offsets\",\"message\":\"give one of pattern, expr or offsets"},
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&expr=4*t&offsets=0,16,32,48,64,80,96,112,128,144,160,176,192,208,224,240,256,272,288,304,320,336,352,368,384,400,416,432,448,464,480,496", NULL, NULL, 400,
     "\"field\":\"offsets\""},
    /* cells of an expression */
    {"GET", "/api/access", "b=3&m=4&s=3&rows=8&expr=4*t", NULL, NULL, 200,
     "\"cells\":{\"slots\":[{\"slot\":0,\"logical\":0,\"phase\":0,\"lanes\":[0,1,2,3]},"},
    /* the column trace (its costs: test_api's trace_cases).  <3,4,3>, column 0: row
     * r's unit moves to column r (slot 9r, banks 4r..4r+3) */
    {"GET", "/api/trace", "b=3&m=4&s=3&rows=8&col=0", NULL, NULL, 200,
     "{\"col\":0,\"rows\":8,\"bytes\":16,\"per_bank\":1,\"cells\":[{\"row\":0,"
     "\"plain\":{\"slot\":0,\"row\":0,\"col\":0,\"banks\":[0,1,2,3]},"
     "\"swizzled\":{\"slot\":0,\"row\":0,\"col\":0,\"banks\":[0,1,2,3]}},"
     "{\"row\":1,\"plain\":{\"slot\":8,\"row\":1,\"col\":0,\"banks\":[0,1,2,3]},"
     "\"swizzled\":{\"slot\":9,\"row\":1,\"col\":1,\"banks\":[4,5,6,7]}}"},
    /* 2-byte units on 8-byte banks: row 1 col 1 is addr 10; <1,1,2> XORs bit 3 into
     * bit 1: 8, slot 4 = (1, 0); both on bank 1 */
    {"GET", "/api/trace", "b=1&m=1&s=2&bank_bytes=8&banks=16&rows=2&col=1", NULL, NULL, 200,
     "{\"row\":1,\"plain\":{\"slot\":5,\"row\":1,\"col\":1,\"banks\":[1]},"
     "\"swizzled\":{\"slot\":4,\"row\":1,\"col\":0,\"banks\":[1]}}]"},
    /* col is required and ranges over the grid's columns (32 when 4-byte units
     * match the 128-byte bank row) */
    {"GET", "/api/trace", "b=3&m=4&s=3&rows=8", NULL, NULL, 400, "\"field\":\"col\""},
    {"GET", "/api/trace", "b=3&m=4&s=3&rows=8&col=8", NULL, NULL, 400, "must be in 0..7"},
    {"GET", "/api/trace", "b=3&m=2&s=3&rows=8&match_bank_row=1&col=32", NULL, NULL, 400,
     "must be in 0..31"},
    {"POST", "/api/trace", "", JSON, "{}", 405, "answers GET only"},
    /* the recommender: on None <0,4,3> (8 rows of 128 bytes) a row store costs 1
     * wavefront in each of its 8 steps and a column read 8 in each of its 32
     * (lanes t and t+8 share a row: 8 rows on one bank); <3,4,3> makes every
     * read 1, the fewest bits reaching the optimizer's bound of 8 + 32 */
    {"GET", "/api/recommend", "b=0&m=4&s=3&write=row_store&read=col_read", NULL, NULL, 200,
     "{\"kind\":\"swizzle\",\"b\":0,\"m\":4,\"s\":3,\"name\":\"Swizzle<0,4,3>\","
     "\"match_bank_row\":0,\"drawable\":true,\"origin\":\"current\","
     "\"write_total\":{\"bytes_per_access\":4,"
     "\"steps\":8,\"wavefronts\":8,"},
    {"GET", "/api/recommend", "b=0&m=4&s=3&write=row_store&read=col_read", NULL, NULL, 200,
     "\"read_total\":{\"bytes_per_access\":4,\"steps\":32,\"wavefronts\":256,\"ideal\":32,"},
    {"GET", "/api/recommend", "b=0&m=4&s=3&write=row_store&read=col_read", NULL, NULL, 200,
     "\"recommended\":{\"kind\":\"swizzle\",\"b\":3,\"m\":4,\"s\":3,"
     "\"name\":\"Swizzle<3,4,3>\",\"match_bank_row\":0,\"drawable\":true,\"origin\":\"preset\","
     "\"is_current\":false,"},
    {"GET", "/api/recommend", "b=0&m=4&s=3&write=row_store&read=col_read", NULL, NULL, 200,
     "\"total_wavefronts\":40,\"ideal_wavefronts\":40,\"saves_wavefronts\":224,"
     "\"reaches_bound\":true,"},
    /* its pasteable forms for the element width: 32-bit words by default (vec 4),
     * fp16 when asked (vec 8); the TMA mode of a 128-byte row */
    {"GET", "/api/recommend", "b=0&m=4&s=3&write=row_store&read=col_read", NULL, NULL, 200,
     "\"triton\":\"#ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>\""},
    {"GET", "/api/recommend", "b=0&m=4&s=3&elem=fp16&write=row_store&read=col_read", NULL, NULL,
     200, "\"triton\":\"#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>\""},
    {"GET", "/api/recommend", "b=0&m=4&s=3&elem=fp16&write=row_store&read=col_read", NULL, NULL,
     200, "\"tma\":\"CU_TENSOR_MAP_SWIZZLE_128B, box {64, 8} elements\""},
    {"GET", "/api/recommend", "b=0&m=4&s=3&elem=fp13&write=row_store&read=col_read", NULL, NULL,
     400, "\"field\":\"elem\""},
    /* seed 001's transpose: a swizzle reaches the bound, 1 + 1 in all 16 + 16 steps */
    {"GET", "/api/recommend", "b=0&m=2&s=5&rows=16&elem=fp32&write=row_store&read=transpose_read",
     NULL, NULL, 200, "\"reaches_bound\":true,\"verdict\":\"a swizzle reaches the optimizer's "
     "bound of 32 wavefronts\""},
    /* 32 rows of 64 bytes: no swizzle a view of this tile draws reaches 1 + 1 on
     * the column read; Swizzle<4,2,5> (row bits 6..10 into word bits 2..6:
     * row t's word r in bank r ^ t) does, a layout to paste, not to draw */
    {"GET", "/api/recommend", "b=2&m=4&s=2&rows=32&write=row_store&read=col_read", NULL, NULL,
     200, "\"recommended\":{\"kind\":\"swizzle\",\"b\":4,\"m\":2,\"s\":5,\"name\":\"Swizzle<4,2,5>\","
     "\"match_bank_row\":null,\"drawable\":false,"},
    /* a tie keeps the current swizzle: a row store and a row load cost 1 + 1 on
     * every candidate, so Swizzle<3,4,3> stays (no reason to change a layout) */
    {"GET", "/api/recommend", "b=3&m=4&s=3&write=row_store&read=row_load_32", NULL, NULL, 200,
     "\"recommended\":{\"kind\":\"swizzle\",\"b\":3,\"m\":4,\"s\":3,"},
    {"GET", "/api/recommend", "b=3&m=4&s=3&write=row_store&read=row_load_32", NULL, NULL, 200,
     "\"is_current\":true,"},
    /* a current swizzle whose 4-byte units split the 16-byte reads is no candidate */
    {"GET", "/api/recommend", "b=1&m=2&s=5&write=row_store&read=col_read_128", NULL, NULL, 200,
     "\"current\":null,\"current_why\":\"its units are narrower than the accesses\""},
    {"GET", "/api/recommend", "b=1&m=2&s=5&write=row_store&read=col_read_128", NULL, NULL, 200,
     "\"saves_wavefronts\":null"},
    /* a tile with more steps than the recommender costs: refused on rows, or
     * with fit=1 answered without a recommendation, saying why */
    {"GET", "/api/recommend", "b=3&m=4&s=3&rows=2048&write=row_store&read=col_read", NULL, NULL,
     400, "\"field\":\"rows\""},
    {"GET", "/api/recommend", "b=3&m=4&s=3&rows=2048&fit=1&write=row_store&read=col_read", NULL,
     NULL, 200, "\"recommended\":null,\"why\":{\"code\":\"invalid_argument\",\"field\":\"rows\","},
    /* a TMA producer: no warp wavefronts on the write, only TMA's modes */
    {"GET", "/api/recommend", "b=0&m=4&s=3&write=tma_box&read=ldmatrix_x4", NULL, NULL, 200,
     "\"recommended\":{\"kind\":\"swizzle\",\"b\":3,\"m\":4,\"s\":3,"},
    {"GET", "/api/recommend", "b=0&m=4&s=3&write=tma_box&read=ldmatrix_x4", NULL, NULL, 200,
     "\"write_total\":{\"steps\":0,\"wavefronts\":0,\"ideal\":0,\"cycles\":0,\"tma\":true,"},
    {"GET", "/api/recommend", "b=0&m=4&s=3&write=row_store", NULL, NULL, 400, "\"field\":\"read\""},
    {"GET", "/api/recommend", "b=0&m=4&s=3&write=nope&read=col_read", NULL, NULL, 400,
     "\"field\":\"write\""},
    {"GET", "/api/recommend", "b=4&m=4&s=3&write=row_store&read=col_read", NULL, NULL, 400,
     "\"field\":\"s\""},
    {"GET", "/api/recommend", "b=0&m=4&s=3&write=row_store&read=col_read&pattern=x", NULL, NULL,
     400, "\"field\":\"pattern\""},
    {"POST", "/api/recommend", "", JSON, "{}", 405, "answers GET only"},
    {"GET", "/api/recommend", "b=3&m=4&s=1&fit=1&write=row_store&read=col_read", NULL, NULL, 200,
     "{\"fits\":false,\"why\":{\"code\":\"invalid_argument\",\"field\":\"s\","},
    {"GET", "/api/recommend", "b=0&m=4&s=3&fit=1&write=row_store&read=col_read", NULL, NULL, 200,
     "{\"fits\":true,\"write\":\"row_store\","},
    {"GET", "/api/recommend", "b=0&m=4&s=3&fit=1&write=nope&read=col_read", NULL, NULL, 400,
     "\"field\":\"write\""},
    {"GET", "/api/trace", "b=3&m=4&s=3&rows=8&col=0&row=1", NULL, NULL, 400,
     "\"field\":\"row\""},

    /* routes and methods */
    {"GET", "/api/nope", "", NULL, NULL, 404, "\"code\":\"not_found\""},
    {"GET", "/api/", "", NULL, NULL, 404, "\"field\":\"path\""},
    {"GET", "/api/health/", "", NULL, NULL, 404, "not_found"},
    {"GET", "/api/HEALTH", "", NULL, NULL, 404, "not_found"},
    {"POST", "/api/health", "", JSON, "{}", 405, "method_not_allowed"},
    {"DELETE", "/api/swizzle", "b=3&m=4&s=3", NULL, NULL, 405, "answers GET only"},
    {"PUT", "/api/apply", "", JSON, "{}", 405, "answers POST only"},
    {"GET", "/api/apply", "", NULL, NULL, 405, "method_not_allowed"},
    {"OPTIONS", "/api/presets", "", NULL, NULL, 405, "method_not_allowed"},

    /* query arguments */
    {"GET", "/api/swizzle", "m=4&s=3", NULL, NULL, 400, "\"field\":\"b\""},
    {"GET", "/api/swizzle", "b=3&s=3", NULL, NULL, 400, "\"field\":\"m\""},
    {"GET", "/api/swizzle", "b=3&m=4", NULL, NULL, 400, "\"field\":\"s\""},
    {"GET", "/api/swizzle", "b=7&m=4&s=6", NULL, NULL, 400, "\"field\":\"s\""},
    {"GET", "/api/swizzle", "b=16&m=4&s=3", NULL, NULL, 400, "must be in 0..15, got 16"},
    {"GET", "/api/swizzle", "b=-1&m=4&s=3", NULL, NULL, 400, "\"field\":\"b\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=1", NULL, NULL, 400, "|SShift| must be >= BBits"},
    {"GET", "/api/swizzle", "b=1&m=4&s=0", NULL, NULL, 400, "\"field\":\"s\""},
    {"GET", "/api/swizzle", "b=3.5&m=4&s=3", NULL, NULL, 400, "must be an integer"},
    {"GET", "/api/swizzle", "b=&m=4&s=3", NULL, NULL, 400, "\"field\":\"b\""},
    {"GET", "/api/swizzle", "b=+3&m=4&s=3", NULL, NULL, 400, "must be an integer"},
    {"GET", "/api/swizzle", "b=0x3&m=4&s=3", NULL, NULL, 400, "must be an integer"},
    {"GET", "/api/swizzle", "b= 3&m=4&s=3", NULL, NULL, 400, "must be an integer"},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&b=2", NULL, NULL, 400, "more than once"},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&bankbytes=8", NULL, NULL, 400,
     "\"field\":\"bankbytes\""},
    {"GET", "/api/swizzle", "b=3&m=99999999999&s=3", NULL, NULL, 400, "\"field\":\"m\""},
    {"GET", "/api/swizzle", "b=3&m=-99999999999&s=3", NULL, NULL, 400, "\"field\":\"m\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&bank_bytes=3", NULL, NULL, 400,
     "\"field\":\"bank_bytes\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&bank_bytes=64", NULL, NULL, 400,
     "\"field\":\"bank_bytes\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&banks=48", NULL, NULL, 400, "\"field\":\"banks\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&banks=0", NULL, NULL, 400, "\"field\":\"banks\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&rows=0", NULL, NULL, 400, "\"field\":\"rows\""},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&rows=1048576", NULL, NULL, 400,
     "\"field\":\"rows\""},
    {"GET", "/api/swizzle", "b=2&m=4&s=-3&rows=3", NULL, NULL, 400, "multiple of 4"},
    {"GET", "/api/swizzle", "b=3&m=4&s=3&match_bank_row=yes", NULL, NULL, 400,
     "\"field\":\"match_bank_row\""},
    {"GET", "/api/swizzle", "b=0&m=9&s=0&match_bank_row=1", NULL, NULL, 400,
     "wider than the bank row"},
    {"GET", "/api/swizzle", "b=11&m=0&s=11", NULL, NULL, 400, "B in 0..10 here"},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=8&col=0", NULL, NULL, 400,
     "\"field\":\"row\""},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=0", NULL, NULL, 400,
     "\"field\":\"col\""},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=0&col=-1", NULL, NULL, 400,
     "must be in 0..7"},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=1&col=2&bank=3", NULL, NULL, 400,
     "\"field\":\"bank\",\"message\":\"bank 3 holds no byte of this unit (its banks: 12..15)\""},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=1&col=2&bank=32", NULL, NULL, 400,
     "\"field\":\"bank\""},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=1&col=2&bank=13&bank_row=0", NULL, NULL, 400,
     "\"field\":\"bank_row\""},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=1&col=2&bank=13&elem_bytes=3", NULL, NULL, 400,
     "\"field\":\"elem_bytes\""},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=1&col=2&elem_bytes=2", NULL, NULL, 400,
     "\"field\":\"bank\""},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=1&col=2&bank=13&map=logical", NULL, NULL, 400,
     "\"field\":\"map\""},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=1&col=2&byte=16", NULL, NULL, 400,
     "\"field\":\"byte\",\"message\":\"must be in 0..15"},
    {"GET", "/api/inspect", "b=3&m=4&s=3&rows=8&row=1&col=2&byte=1&bank=12", NULL, NULL, 400,
     "\"field\":\"byte\""},
    {"GET", "/api/health", "x=1", NULL, NULL, 400, "\"field\":\"x\""},

    /* bodies */
    {"POST", "/api/apply", "", NULL, "{}", 415, "unsupported_media_type"},
    {"POST", "/api/apply", "", "text/plain", "{}", 415, "Content-Type"},
    {"POST", "/api/apply", "", "application/jsonx", "{}", 415, "Content-Type"},
    {"POST", "/api/apply", "", JSON, NULL, 400, "empty body"},
    {"POST", "/api/apply", "", JSON, "", 400, "bad_json"},
    {"POST", "/api/apply", "", JSON, "{", 400, "invalid JSON"},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,}", 400, "bad_json"},
    {"POST", "/api/apply", "", JSON, "{} {}", 400, "trailing data"},
    {"POST", "/api/apply", "", JSON, "{}x", 400, "trailing data"},
    {"POST", "/api/apply", "", JSON, "[1,2]", 400, "must be a JSON object"},
    {"POST", "/api/apply", "", JSON, "null", 400, "must be a JSON object"},
    {"POST", "/api/apply", "", JSON, "\"str\"", 400, "must be a JSON object"},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3}", 400, "\"field\":\"offsets\""},
    {"POST", "/api/apply", "", JSON, "{\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "\"field\":\"b\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":\"3\",\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "\"field\":\"b\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":true,\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "\"field\":\"b\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":null,\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "\"field\":\"b\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3.5,\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "fraction"},
    {"POST", "/api/apply", "", JSON, "{\"b\":1e400,\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "\"field\":\"b\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":-1e400,\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "\"field\":\"b\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":NaN,\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "bad_json"},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":1,\"offsets\":[]}", 400,
     "\"field\":\"s\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":{}}", 400,
     "\"field\":\"offsets\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[1,-1]}", 400,
     "\"field\":\"offsets[1]\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[2147483648]}",
     400, "\"field\":\"offsets[0]\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[0.5]}", 400,
     "\"field\":\"offsets[0]\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[null]}", 400,
     "\"field\":\"offsets[0]\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[[1]]}", 400,
     "\"field\":\"offsets[0]\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[],\"x\":1}", 400,
     "\"field\":\"x\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"b\":2,\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "more than once"},
    {"POST", "/api/apply", "", JSON, "{\"B\":3,\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "\"field\":\"B\""},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[1,]}", 400,
     "bad_json"},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[01]}", 400,
     "bad_json"},
    {"POST", "/api/apply", "", JSON, "{\"b\":\"\xff\",\"m\":4,\"s\":3,\"offsets\":[]}", 400,
     "not valid UTF-8"},
    {"POST", "/api/apply", "", JSON, "{\"b\":\"\xc0\xaf\"}", 400, "not valid UTF-8"},
    {"POST", "/api/apply", "", JSON, "{\"b\":\"\xed\xa0\x80\"}", 400, "not valid UTF-8"},
    {"POST", "/api/apply", "", JSON, "{\"\xc3\xa9\":1}", 400, "unknown field"},
    {"POST", "/api/apply", "", JSON, "{\"b\":3,\"m\":4,\"s\":3,\"offsets\":[1]}garbage", 400,
     "trailing data"},
    /* shared-memory atomics (issue 17): 32 lanes on one word serialize (32, where a load
     * broadcasts in 1), cas twice; forms PTX lacks name func or type; non-native: null */
#define SZ_Z32 "[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]"
#define SZ_W32 "[0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92," \
               "96,100,104,108,112,116,120,124]"
    {"POST", "/api/conflicts", "", JSON, "{\"op\":\"atom\",\"offsets\":" SZ_Z32 "}", 200,
     "\"wavefronts\":32,\"ideal_wavefronts\":1,\"bank_conflicts\":31,\"cycles\":32.00,"},
    {"POST", "/api/conflicts", "", JSON, "{\"op\":\"atom\",\"offsets\":" SZ_Z32 "}", 200,
     "\"conflict_wavefronts\":0,\"serial_wavefronts\":31,"},
    {"POST", "/api/conflicts", "", JSON, "{\"op\":\"red\",\"offsets\":" SZ_W32 "}", 200,
     "\"form\":\"red.add.u32\",\"native\":true,"},
    {"POST", "/api/conflicts", "", JSON, "{\"op\":\"red\",\"offsets\":" SZ_W32 "}", 200,
     "\"wavefronts\":1,\"ideal_wavefronts\":1,\"bank_conflicts\":0,\"cycles\":2.04,"},
    {"POST", "/api/conflicts", "", JSON,
     "{\"op\":\"atom\",\"func\":\"cas\",\"type\":\"b32\",\"offsets\":" SZ_Z32 "}", 200,
     "\"wavefronts\":64,"},
    {"POST", "/api/conflicts", "", JSON,
     "{\"op\":\"atom\",\"func\":\"add\",\"type\":\"f32\",\"offsets\":" SZ_W32 "}", 200,
     "\"native\":false,"},
    {"POST", "/api/conflicts", "", JSON,
     "{\"op\":\"atom\",\"func\":\"add\",\"type\":\"f32\",\"offsets\":" SZ_W32 "}", 200,
     "\"wavefronts\":null,\"ideal_wavefronts\":null,\"bank_conflicts\":null,\"cycles\":null,"},
    {"POST", "/api/conflicts", "", JSON,
     "{\"op\":\"atom\",\"func\":\"min\",\"type\":\"f32\",\"offsets\":" SZ_W32 "}", 400,
     "\"field\":\"type\",\"message\":\"atom.shared.min takes u32, s32, u64, s64"},
    {"POST", "/api/conflicts", "", JSON,
     "{\"op\":\"red\",\"func\":\"exch\",\"type\":\"b32\",\"offsets\":[0]}", 400,
     "\"field\":\"func\""},
    {"POST", "/api/conflicts", "", JSON,
     "{\"op\":\"atom\",\"type\":\"u64\",\"bytes\":4,\"offsets\":" SZ_Z32 "}", 400,
     "\"field\":\"bytes\""},
    {"POST", "/api/conflicts", "", JSON,
     "{\"op\":\"atom\",\"type\":\"u64\",\"offsets\":" SZ_W32 "}", 400,
     "\"field\":\"offsets[1]\""},
    {"POST", "/api/conflicts", "", JSON, "{\"op\":\"ld\",\"func\":\"add\",\"offsets\":" SZ_W32
     "}", 400, "\"field\":\"func\""},
    {"POST", "/api/conflicts", "", JSON, "{\"op\":\"atom\",\"func\":\"sub\",\"offsets\":" SZ_W32
     "}", 400, "\"field\":\"func\""},
    /* issue 41, A14 (atomic_warps.c): "warps" re-costs an atomic's cycles for the
     * tool's loop on that many warps (atomic_warps_h200.json, 2026-11-29: atom one
     * wavefront at 8 warps 1.1735, the rule 75.1 / 64; red at 5 warps 1.6266, the
     * rule 1.63 with N1's collisions, read off, not derived: not exact); 16 is the
     * answer without it; only atomics take it, 1..32.
     * SZ_WARPS(body fields before "offsets", status, what the answer holds) */
#define SZ_WARPS(F, ST, WANT) {"POST", "/api/conflicts", "", JSON, "{" F ",\"offsets\":" SZ_W32 "}", ST, WANT}
    SZ_WARPS("\"op\":\"atom\",\"guard\":\"none\",\"warps\":8", 200,
             "\"cycles_exact\":true,\"pipe_cycles\":1.17,\"branch_cycles\":0.00,\"warps\":8,"),
    SZ_WARPS("\"op\":\"atom\",\"guard\":\"none\",\"warps\":8", 200, "\"cycles\":1.17,"),
    SZ_WARPS("\"op\":\"red\",\"guard\":\"none\",\"warps\":5", 200,
             "\"cycles_exact\":false,\"pipe_cycles\":1.63,"),
    SZ_WARPS("\"op\":\"atom\",\"guard\":\"none\",\"warps\":16", 200,
             "\"cycles_exact\":true,\"pipe_cycles\":1.02,\"branch_cycles\":0.00,\"warps\":16,"),
    SZ_WARPS("\"op\":\"atom\",\"warps\":8", 200, "\"cycles_exact\":false,"),
    SZ_WARPS("\"op\":\"ld\",\"warps\":8", 400,
             "\"field\":\"warps\",\"message\":\"only atom and red take warps"),
    SZ_WARPS("\"op\":\"red\",\"warps\":0", 400, "\"message\":\"must be in 1..32, got 0\""),
    SZ_WARPS("\"op\":\"red\",\"warps\":33", 400, "\"message\":\"must be in 1..32, got 33\""),
    SZ_WARPS("\"op\":\"red\",\"warps\":\"8\"", 400, "\"field\":\"warps\""),
#undef SZ_WARPS
    /* C4 (access.c): a column of rows from sources 32 B apart: the hardware counter
     * reads 26 where L1 says 14 (cp_hw_h200.json "ca4.s_col8.g_s32") */
    {"POST", "/api/conflicts", "", JSON,
     "{\"op\":\"cp.async\",\"bytes\":4,\"offsets\":[0,128,256,384,512,640,768,896,4,132,"
     "260,388,516,644,772,900,8,136,264,392,520,648,776,904,12,140,268,396,524,652,780,908],"
     "\"global_offsets\":[0,32,64,96,128,160,192,224,256,288,320,352,384,416,448,480,512,544,"
     "576,608,640,672,704,736,768,800,832,864,896,928,960,992]}", 200,
     "\"wavefronts_exact\":true,\"cycles_exact\":false,"},
    {"POST", "/api/conflicts", "", JSON,
     "{\"op\":\"cp.async\",\"bytes\":4,\"offsets\":" SZ_W32 "}", 200,
     "\"wavefronts_exact\":true,\"cycles_exact\":true,"},
#undef SZ_Z32
#undef SZ_W32
    {"GET", "/api/patterns", "", NULL, NULL, 200,
     "{\"name\":\"red_lane_counters\",\"op\":\"red\",\"func\":\"add\",\"type\":\"u32\","},
    {"GET", "/api/access", "b=0&m=4&s=3&rows=8&pattern=atom_hist32_adversarial&step=5", NULL,
     NULL, 200, "\"serial_wavefronts\":31,"},
    {"GET", "/api/access", "b=0&m=4&s=3&rows=8&pattern=atom_hist256_adversarial", NULL, NULL,
     200, "\"conflict_wavefronts\":7,\"serial_wavefronts\":24,"},
    {"GET", "/api/access", "b=0&m=4&s=3&rows=8&pattern=red_lane_counters&step=7", NULL, NULL,
     200, "\"wavefronts\":1,"},
    {"GET", "/api/access", "b=0&m=4&s=3&rows=4&pattern=atom_hist256_random", NULL, NULL, 400,
     "\"field\":\"rows\""},
    {"GET", "/api/access", "b=0&m=4&s=3&rows=8&pattern=atom_lane_counters&type=s32", NULL,
     NULL, 400, "\"field\":\"type\""},
    {"GET", "/api/access", "b=0&m=4&s=3&rows=8&expr=8*(t%2516)&op=atom&func=cas&type=b64",
     NULL, NULL, 200, "\"wavefronts\":4,"},
    {"GET", "/api/access", "b=0&m=4&s=3&rows=8&offsets=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
     "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-&op=red&func=max&type=s32", NULL, NULL, 200,
     "\"wavefronts\":31,"},
    {"GET", "/api/access", "b=0&m=4&s=3&rows=8&expr=4*t&op=st&type=u32", NULL, NULL, 400,
     "\"field\":\"type\""},
};

#endif
