/* cmdgpu core: the assembler's integer expressions.
 *
 * Values are 64-bit two's complement. All arithmetic is done on uint64_t,
 * where C defines wrap-around, and only reinterpreted as signed where the
 * sign matters (/, %, >>), so no input can reach signed-overflow undefined
 * behaviour. Precedence, lowest first, as in C:
 *   |   ^   &   << >>   + -   * / %   unary - ~ +
 * Binary operators are left-associative; parsing is precedence climbing.
 * Nesting (parentheses and unary operators) is limited to ASM_MAX_DEPTH so
 * hostile input cannot exhaust the stack. */
#include "asm_internal.h"

enum asm_op { OP_NONE, OP_OR, OP_XOR, OP_AND, OP_SHL, OP_SHR, OP_ADD, OP_SUB, OP_MUL,
              OP_DIV, OP_MOD };

static int op_prec(enum asm_op op)
{
    switch (op) {
    case OP_OR: return 1;
    case OP_XOR: return 2;
    case OP_AND: return 3;
    case OP_SHL: case OP_SHR: return 4;
    case OP_ADD: case OP_SUB: return 5;
    case OP_MUL: case OP_DIV: case OP_MOD: return 6;
    case OP_NONE: break;
    }
    return 0;
}

/* The binary operator at the cursor (not consumed), and its length. */
static enum asm_op peek_binop(cg_asm *as, size_t *len)
{
    asm_skip_blanks(as);
    const char *p = as->cur, *end = as->end;
    *len = 1;
    if (p >= end)
        return OP_NONE;
    bool doubled = p + 1 < end && p[1] == p[0];
    switch (*p) {
    case '|': return OP_OR;
    case '^': return OP_XOR;
    case '&': return OP_AND;
    case '+': return OP_ADD;
    case '-': return OP_SUB;
    case '*': return OP_MUL;
    case '%': return OP_MOD;
    case '/': return doubled ? OP_NONE : OP_DIV; /* "//" starts a comment */
    case '<': *len = 2; return doubled ? OP_SHL : OP_NONE;
    case '>': *len = 2; return doubled ? OP_SHR : OP_NONE;
    default: return OP_NONE;
    }
}

static int apply(cg_asm *as, enum asm_op op, uint64_t a, uint64_t b, const char *rpos,
                 uint64_t *out)
{
    switch (op) {
    case OP_OR: *out = a | b; break;
    case OP_XOR: *out = a ^ b; break;
    case OP_AND: *out = a & b; break;
    case OP_ADD: *out = a + b; break;
    case OP_SUB: *out = a - b; break;
    case OP_MUL: *out = a * b; break; /* the low 64 bits are the same signed or not */
    case OP_DIV:
    case OP_MOD: {
        if (b == 0)
            return asm_error_at(as, rpos, "division by zero");
        int64_t sa = asm_u2i(a), sb = asm_u2i(b);
        if (sb == -1)
            /* INT64_MIN / -1 overflows (and traps on x86): x / -1 is -x with
             * wrap-around, and x % -1 is always 0. */
            *out = op == OP_DIV ? 0 - a : 0;
        else
            *out = (uint64_t)(op == OP_DIV ? sa / sb : sa % sb);
        break;
    }
    case OP_SHL:
        /* A count outside 0..63 (negative counts are huge unsigned) gives 0:
         * C leaves such shifts undefined. */
        *out = b >= 64 ? 0 : a << b;
        break;
    case OP_SHR:
        /* Arithmetic: the sign bit is copied in. Done as ~(~a >> b) for
         * negative values because >> of a negative signed value is
         * implementation-defined in C. Counts outside 0..63 give 0, as for <<. */
        if (b >= 64)
            *out = 0;
        else if (a >> 63)
            *out = ~(~a >> b);
        else
            *out = a >> b;
        break;
    case OP_NONE:
        *out = a;
        break;
    }
    return 0;
}

static int parse_binary(cg_asm *as, int min_prec, uint64_t *out);

static int parse_symbol(cg_asm *as, uint64_t *out)
{
    const char *p = as->cur;
    size_t n = asm_ident_len(p, as->end);
    if (n > ASM_MAX_IDENT)
        return asm_error_at(as, p, "name longer than %d characters", ASM_MAX_IDENT);
    if (n == 1 && *p == '.') {
        *out = as->stmt_pc;
    } else {
        const struct asm_symbol *s = asm_symbol_find(as, p, n);
        if (s && as->equ_rec)
            asm_equ_dep(as, (size_t)(s - as->syms));
        if (s && s->pass > 0)
            *out = (uint64_t)s->value;
        else if (as->final)
            return asm_error_at(as, p, "undefined symbol '%.*s'", (int)n, p);
        else
            *out = 0; /* a forward reference before its first definition */
    }
    as->cur = p + n;
    return 0;
}

static int parse_unary(cg_asm *as, uint64_t *out)
{
    char tok[48];
    asm_skip_blanks(as);
    const char *p = as->cur;
    if (p >= as->end || asm_at_comment_in(as, p))
        return asm_error_at(as, p, "expected an expression, found end of line");
    char c = *p;
    if (c == '(' || c == '-' || c == '~' || c == '+') {
        if (as->depth >= ASM_MAX_DEPTH)
            return asm_error_at(as, p, "expression nested more than %d levels deep",
                                ASM_MAX_DEPTH);
        as->depth++;
        as->cur++;
        uint64_t v;
        int rc = c == '(' ? parse_binary(as, 1, &v) : parse_unary(as, &v);
        if (rc == 0 && c == '(')
            rc = cg_asm_expect(as, ')');
        as->depth--;
        if (rc)
            return rc;
        *out = c == '-' ? 0 - v : c == '~' ? ~v : v;
        return 0;
    }
    if (c >= '0' && c <= '9')
        return asm_lex_number(as, out);
    if (c == '\'')
        return asm_lex_char(as, out);
    if (asm_is_ident_start(c))
        return parse_symbol(as, out);
    return asm_error_at(as, p, "expected an expression, found %s",
                        asm_describe(p, as->end, tok, sizeof(tok)));
}

static int parse_binary(cg_asm *as, int min_prec, uint64_t *out)
{
    uint64_t lhs;
    int rc = parse_unary(as, &lhs);
    if (rc)
        return rc;
    for (;;) {
        size_t len;
        enum asm_op op = peek_binop(as, &len);
        int prec = op_prec(op);
        if (op == OP_NONE || prec < min_prec)
            break;
        as->cur += len;
        asm_skip_blanks(as);
        const char *rpos = as->cur;
        uint64_t rhs;
        /* prec + 1: operators of the same level associate to the left. The
         * recursion is bounded by the number of levels. */
        rc = parse_binary(as, prec + 1, &rhs);
        if (rc)
            return rc;
        rc = apply(as, op, lhs, rhs, rpos, &lhs);
        if (rc)
            return rc;
    }
    *out = lhs;
    return 0;
}

int asm_expr(cg_asm *as, int64_t *value)
{
    uint64_t v;
    as->depth = 0;
    int rc = parse_binary(as, 1, &v);
    if (rc)
        return rc;
    *value = asm_u2i(v);
    return 0;
}
