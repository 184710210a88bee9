#include "chat/PyFormat.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "chat/JinjaError.h"
#include "chat/Utf8.h"

namespace hearth::chat::pyformat {
namespace {

// Pads s (measured in code points) to width with fill, aligned '<', '>' or '^'.
std::string pad(const std::string& s, size_t width, char32_t fill, char align) {
    const size_t len = utf8::length(s);
    if (len >= width) return s;
    const size_t total = width - len;
    size_t left = 0;
    if (align == '>') left = total;
    else if (align == '^') left = total / 2;
    std::string f;
    utf8::append(f, fill);
    std::string out;
    for (size_t i = 0; i < left; ++i) out += f;
    out += s;
    for (size_t i = left; i < total; ++i) out += f;
    return out;
}

std::string cFormat(const char* fmt, double v) {
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

// Groups the integer digits of a plain number ("1234567.5" -> "1,234,567.5").
std::string group(const std::string& digits, char sep) {
    size_t start = (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) ? 1 : 0;
    size_t end = digits.find_first_of(".eE", start);
    if (end == std::string::npos) end = digits.size();
    std::string intPart = digits.substr(start, end - start);
    std::string grouped;
    for (size_t i = 0; i < intPart.size(); ++i) {
        if (i && (intPart.size() - i) % 3 == 0) grouped.push_back(sep);
        grouped.push_back(intPart[i]);
    }
    return digits.substr(0, start) + grouped + digits.substr(end);
}

std::string formatIntSpec(int64_t v, char type, bool alt) {
    char buf[80];
    const bool neg = v < 0;
    const uint64_t mag = neg ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    std::string body;
    switch (type) {
        case 'x': std::snprintf(buf, sizeof buf, "%llx", (unsigned long long)mag); body = buf; if (alt) body = "0x" + body; break;
        case 'X': std::snprintf(buf, sizeof buf, "%llX", (unsigned long long)mag); body = buf; if (alt) body = "0X" + body; break;
        case 'o': std::snprintf(buf, sizeof buf, "%llo", (unsigned long long)mag); body = buf; if (alt) body = "0o" + body; break;
        case 'b': {
            if (mag == 0) body = "0";
            for (uint64_t m = mag; m; m >>= 1) body.insert(body.begin(), char('0' + (m & 1)));
            if (alt) body = "0b" + body;
            break;
        }
        default: body = std::to_string(mag);
    }
    return (neg ? "-" : "") + body;
}

// Python's float formatting for types e f g % and the spec's "no type" form.
std::string formatFloatSpec(double v, char type, int precision, bool alt) {
    if (std::isinf(v)) return std::string(v < 0 ? "-" : "") + (type == 'E' || type == 'F' || type == 'G' ? "INF" : "inf");
    if (std::isnan(v)) return (type == 'E' || type == 'F' || type == 'G') ? "NAN" : "nan";
    std::string fmt = "%";
    if (alt) fmt += "#";
    if (type == '%') {
        return cFormat(("%" + std::string(alt ? "#" : "") + "." + std::to_string(precision < 0 ? 6 : precision) + "f").c_str(), v * 100) + "%";
    }
    if (type == 0) {
        if (precision < 0) return floatRepr(v);
        // Like 'g', but scientific from exponent p-1 on, and a fixed result keeps one digit after
        // the point.
        const int p = precision == 0 ? 1 : precision;
        const std::string sci = cFormat(("%." + std::to_string(p - 1) + "e").c_str(), v);
        const int exp = std::atoi(sci.c_str() + sci.find('e') + 1);
        auto stripZeros = [](std::string s) {
            if (s.find('.') == std::string::npos) return s;
            while (s.back() == '0') s.pop_back();
            if (s.back() == '.') s.pop_back();
            return s;
        };
        if (exp >= -4 && exp < p - 1) {
            std::string s = stripZeros(cFormat(("%." + std::to_string(p - 1 - exp) + "f").c_str(), v));
            if (s.find('.') == std::string::npos) s += ".0";
            return s;
        }
        const size_t e = sci.find('e');
        return stripZeros(sci.substr(0, e)) + sci.substr(e);
    }
    fmt += "." + std::to_string(precision < 0 ? 6 : precision);
    fmt.push_back(type);
    return cFormat(fmt.c_str(), v);
}

struct Spec {
    char32_t fill = ' ';
    char align = 0;
    char sign = '-';
    bool alt = false;
    bool zero = false;
    size_t width = 0;
    char grouping = 0;
    int precision = -1;
    char type = 0;
};

Spec parseSpec(std::string_view spec) {
    Spec s;
    size_t i = 0;
    auto isAlign = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
    if (!spec.empty()) {
        size_t pos = 0;
        const char32_t first = utf8::next(spec, pos);
        if (pos < spec.size() && isAlign(spec[pos])) {
            s.fill = first;
            s.align = spec[pos];
            i = pos + 1;
        } else if (isAlign(spec[0])) {
            s.align = spec[0];
            i = 1;
        }
    }
    if (i < spec.size() && (spec[i] == '+' || spec[i] == '-' || spec[i] == ' ')) s.sign = spec[i++];
    if (i < spec.size() && spec[i] == '#') s.alt = true, ++i;
    if (i < spec.size() && spec[i] == '0') s.zero = true, ++i;
    while (i < spec.size() && spec[i] >= '0' && spec[i] <= '9') s.width = s.width * 10 + (spec[i++] - '0');
    if (i < spec.size() && (spec[i] == ',' || spec[i] == '_')) s.grouping = spec[i++];
    if (i < spec.size() && spec[i] == '.') {
        ++i;
        s.precision = 0;
        if (i >= spec.size() || spec[i] < '0' || spec[i] > '9') fail(JinjaError::Kind::Value, "Format specifier missing precision");
        while (i < spec.size() && spec[i] >= '0' && spec[i] <= '9') s.precision = s.precision * 10 + (spec[i++] - '0');
    }
    if (i < spec.size()) s.type = spec[i++];
    if (i != spec.size()) fail(JinjaError::Kind::Value, "Invalid format specifier '" + std::string(spec) + "'");
    return s;
}

// Applies sign, zero padding and alignment to a formatted number.
std::string finishNumber(std::string body, const Spec& s) {
    std::string sign;
    if (!body.empty() && body[0] == '-') {
        sign = "-";
        body.erase(0, 1);
    } else if (s.sign == '+') {
        sign = "+";
    } else if (s.sign == ' ') {
        sign = " ";
    }
    if (s.grouping) body = group(body, s.grouping);
    char align = s.align ? s.align : '>';
    char32_t fill = s.fill;
    if (s.zero && !s.align) {
        align = '=';
        fill = '0';
    }
    if (align == '=') {
        const size_t len = utf8::length(sign) + utf8::length(body);
        std::string f;
        utf8::append(f, fill);
        std::string padding;
        for (size_t i = len; i < s.width; ++i) padding += f;
        return sign + padding + body;
    }
    return pad(sign + body, s.width, fill, align);
}

}  // namespace

std::string floatRepr(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    std::string sci(buf, res.ptr);
    const size_t epos = sci.find('e');
    std::string mant = sci.substr(0, epos);
    const int exp = std::atoi(sci.c_str() + epos + 1);
    const bool neg = mant[0] == '-';
    if (neg) mant.erase(0, 1);
    std::string digits;
    for (char c : mant)
        if (c != '.') digits.push_back(c);
    std::string out = neg ? "-" : "";
    if (exp >= -4 && exp < 16) {
        if (exp >= 0) {
            const size_t intLen = static_cast<size_t>(exp) + 1;
            if (digits.size() <= intLen) {
                out += digits + std::string(intLen - digits.size(), '0') + ".0";
            } else {
                out += digits.substr(0, intLen) + "." + digits.substr(intLen);
            }
        } else {
            out += "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
        }
        return out;
    }
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char ebuf[16];
    std::snprintf(ebuf, sizeof ebuf, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    return out + ebuf;
}

double roundTo(double v, int ndigits) {
    if (!std::isfinite(v)) return v;
    if (ndigits < 0) {
        const double scale = std::pow(10.0, -ndigits);
        return std::nearbyint(v / scale) * scale;
    }
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", ndigits > 300 ? 300 : ndigits, v);
    return std::strtod(buf, nullptr);
}

std::string formatSpec(const Value& v, std::string_view specText) {
    if (specText.empty()) return v.toStr();
    const Spec s = parseSpec(specText);
    if (v.isString()) {
        if (s.type && s.type != 's') fail(JinjaError::Kind::Value, std::string("Unknown format code '") + s.type + "' for object of type 'str'");
        if (s.align == '=' || s.sign != '-') fail(JinjaError::Kind::Value, "Sign or '=' alignment not allowed in string format specifier");
        std::string text = v.str();
        if (s.precision >= 0 && utf8::length(text) > size_t(s.precision))
            text = text.substr(0, utf8::byteOffset(text, size_t(s.precision)));
        return pad(text, s.width, s.fill, s.align ? s.align : '<');
    }
    if (v.isInt() || v.isBool()) {
        if (s.type == 0 && v.isBool()) return pad(v.toStr(), s.width, s.fill, s.align ? s.align : '<');
        switch (s.type) {
            case 0: case 'd': case 'n': case 'x': case 'X': case 'o': case 'b':
                if (s.precision >= 0) fail(JinjaError::Kind::Value, "Precision not allowed in integer format specifier");
                return finishNumber(formatIntSpec(v.asInt(), s.type, s.alt), s);
            case 'c': {
                std::string c;
                utf8::append(c, static_cast<char32_t>(v.asInt()));
                return pad(c, s.width, s.fill, s.align ? s.align : '<');
            }
            case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case '%':
                return finishNumber(formatFloatSpec(v.asFloat(), s.type, s.precision, s.alt), s);
            default: break;
        }
        fail(JinjaError::Kind::Value, std::string("Unknown format code '") + s.type + "' for object of type 'int'");
    }
    if (v.isFloat()) {
        switch (s.type) {
            case 0: case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case '%': case 'n':
                return finishNumber(formatFloatSpec(v.asFloat(), s.type == 'n' ? 'g' : s.type, s.precision, s.alt), s);
            default: break;
        }
        fail(JinjaError::Kind::Value, std::string("Unknown format code '") + s.type + "' for object of type 'float'");
    }
    failType("unsupported format string passed to " + v.typeName() + ".__format__");
}

std::string percentFormat(std::string_view fmt, const Value& args) {
    std::vector<Value> positional;
    const bool mapping = args.isDict();
    if (args.isTuple()) positional = args.items();
    else positional.push_back(args);
    size_t next = 0;
    bool usedMapping = false;
    std::string out;
    for (size_t i = 0; i < fmt.size(); ++i) {
        if (fmt[i] != '%') {
            out.push_back(fmt[i]);
            continue;
        }
        if (++i >= fmt.size()) fail(JinjaError::Kind::Value, "incomplete format");
        Value arg;
        bool haveArg = false;
        if (fmt[i] == '(') {
            const size_t close = fmt.find(')', i);
            if (close == std::string_view::npos) fail(JinjaError::Kind::Value, "incomplete format key");
            if (!mapping) failType("format requires a mapping");
            const Value* found = args.dictObj().findStr(fmt.substr(i + 1, close - i - 1));
            if (!found) fail(JinjaError::Kind::Key, "'" + std::string(fmt.substr(i + 1, close - i - 1)) + "'");
            arg = *found;
            haveArg = usedMapping = true;
            i = close + 1;
        }
        Spec s;
        for (; i < fmt.size(); ++i) {
            const char c = fmt[i];
            if (c == '-') s.align = '<';
            else if (c == '+') s.sign = '+';
            else if (c == ' ') s.sign = s.sign == '+' ? '+' : ' ';
            else if (c == '#') s.alt = true;
            else if (c == '0') s.zero = true;
            else break;
        }
        if (i < fmt.size() && fmt[i] == '*') failUnsupported("'*' width in a % format");
        while (i < fmt.size() && fmt[i] >= '0' && fmt[i] <= '9') s.width = s.width * 10 + (fmt[i++] - '0');
        if (i < fmt.size() && fmt[i] == '.') {
            ++i;
            s.precision = 0;
            while (i < fmt.size() && fmt[i] >= '0' && fmt[i] <= '9') s.precision = s.precision * 10 + (fmt[i++] - '0');
        }
        if (i < fmt.size() && (fmt[i] == 'l' || fmt[i] == 'h' || fmt[i] == 'L')) ++i;
        if (i >= fmt.size()) fail(JinjaError::Kind::Value, "incomplete format");
        const char type = fmt[i];
        if (type == '%') {
            out.push_back('%');
            continue;
        }
        if (!haveArg) {
            if (mapping && positional.size() == 1) {
                arg = args;
            } else {
                if (next >= positional.size()) failType("not enough arguments for format string");
                arg = positional[next++];
            }
        }
        if (s.align == '<') s.zero = false;
        const char align = s.align ? s.align : '>';
        switch (type) {
            case 's': case 'r': case 'a': {
                std::string text = type == 's' ? arg.toStr() : arg.repr();
                if (s.precision >= 0 && utf8::length(text) > size_t(s.precision))
                    text = text.substr(0, utf8::byteOffset(text, size_t(s.precision)));
                out += pad(text, s.width, ' ', align);
                break;
            }
            case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': {
                if (!arg.isNumber()) failType(std::string("%") + type + " format: a real number is required, not " + arg.typeName());
                const int64_t n = arg.isFloat() ? static_cast<int64_t>(std::trunc(arg.asFloat())) : arg.asInt();
                Spec num = s;
                num.align = s.align ? s.align : 0;
                std::string body = formatIntSpec(n, (type == 'd' || type == 'i' || type == 'u') ? 'd' : type, s.alt);
                if (s.precision >= 0) {
                    const bool neg = body[0] == '-';
                    std::string digits = neg ? body.substr(1) : body;
                    if (digits.size() < size_t(s.precision)) digits.insert(0, size_t(s.precision) - digits.size(), '0');
                    body = (neg ? "-" : "") + digits;
                }
                out += finishNumber(body, num);
                break;
            }
            case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': {
                if (!arg.isNumber()) failType("must be real number, not " + arg.typeName());
                Spec num = s;
                num.align = s.align ? s.align : 0;
                out += finishNumber(formatFloatSpec(arg.asFloat(), type, s.precision < 0 ? 6 : s.precision, s.alt), num);
                break;
            }
            case 'c': {
                std::string c;
                if (arg.isString() && utf8::length(arg.str()) == 1) c = arg.str();
                else if (arg.isInt()) utf8::append(c, static_cast<char32_t>(arg.asInt()));
                else failType("%c requires int or char");
                out += pad(c, s.width, ' ', align);
                break;
            }
            default:
                fail(JinjaError::Kind::Value, std::string("unsupported format character '") + type + "'");
        }
    }
    if (!usedMapping && !mapping && next < positional.size())
        failType("not all arguments converted during string formatting");
    return out;
}

std::string braceFormat(std::string_view fmt, const std::vector<Value>& args,
                        const std::vector<std::pair<std::string, Value>>& kwargs, const FieldLookup& lookup) {
    std::string out;
    size_t autoIndex = 0;
    bool usedAuto = false, usedManual = false;
    for (size_t i = 0; i < fmt.size(); ++i) {
        const char c = fmt[i];
        if (c == '}') {
            if (i + 1 < fmt.size() && fmt[i + 1] == '}') {
                out.push_back('}');
                ++i;
                continue;
            }
            fail(JinjaError::Kind::Value, "Single '}' encountered in format string");
        }
        if (c != '{') {
            out.push_back(c);
            continue;
        }
        if (i + 1 < fmt.size() && fmt[i + 1] == '{') {
            out.push_back('{');
            ++i;
            continue;
        }
        const size_t close = fmt.find('}', i);
        if (close == std::string_view::npos) fail(JinjaError::Kind::Value, "Single '{' encountered in format string");
        std::string_view field = fmt.substr(i + 1, close - i - 1);
        if (field.find('{') != std::string_view::npos) failUnsupported("nested replacement fields in str.format()");
        i = close;
        std::string_view spec;
        char conversion = 0;
        if (auto colon = field.find(':'); colon != std::string_view::npos) {
            spec = field.substr(colon + 1);
            field = field.substr(0, colon);
        }
        if (auto bang = field.find('!'); bang != std::string_view::npos) {
            if (bang + 2 != field.size()) fail(JinjaError::Kind::Value, "expected ':' after conversion specifier");
            conversion = field[bang + 1];
            field = field.substr(0, bang);
        }
        size_t nameEnd = field.find_first_of(".[");
        std::string_view first = field.substr(0, nameEnd);
        Value obj;
        if (first.empty()) {
            if (usedManual) fail(JinjaError::Kind::Value, "cannot switch from manual field specification to automatic field numbering");
            usedAuto = true;
            if (autoIndex >= args.size()) fail(JinjaError::Kind::Index, "Replacement index " + std::to_string(autoIndex) + " out of range for positional args tuple");
            obj = args[autoIndex++];
        } else if (first.find_first_not_of("0123456789") == std::string_view::npos) {
            if (usedAuto) fail(JinjaError::Kind::Value, "cannot switch from automatic field numbering to manual field specification");
            usedManual = true;
            size_t idx = 0;
            if (std::from_chars(first.data(), first.data() + first.size(), idx).ec != std::errc()) idx = SIZE_MAX;
            if (idx >= args.size()) fail(JinjaError::Kind::Index, "Replacement index " + std::string(first) + " out of range for positional args tuple");
            obj = args[idx];
        } else {
            bool found = false;
            for (const auto& [k, v] : kwargs) {
                if (k == first) {
                    obj = v;
                    found = true;
                }
            }
            if (!found) fail(JinjaError::Kind::Key, "'" + std::string(first) + "'");
        }
        while (nameEnd != std::string_view::npos && nameEnd < field.size()) {
            if (field[nameEnd] == '.') {
                const size_t end = field.find_first_of(".[", nameEnd + 1);
                obj = lookup(obj, Value(std::string(field.substr(nameEnd + 1, end - nameEnd - 1))), true);
                nameEnd = end;
            } else {
                const size_t end = field.find(']', nameEnd);
                if (end == std::string_view::npos) fail(JinjaError::Kind::Value, "Missing ']' in format string");
                std::string key(field.substr(nameEnd + 1, end - nameEnd - 1));
                int64_t index = 0;
                const bool numeric = !key.empty() && key.find_first_not_of("0123456789") == std::string::npos &&
                                     std::from_chars(key.data(), key.data() + key.size(), index).ec == std::errc();
                Value k = numeric ? Value(index) : Value(key);
                obj = lookup(obj, k, false);
                nameEnd = end + 1 < field.size() ? end + 1 : std::string_view::npos;
            }
        }
        if (conversion == 'r' || conversion == 'a') obj = Value(obj.repr());
        else if (conversion == 's') obj = Value(obj.toStr());
        else if (conversion) fail(JinjaError::Kind::Value, std::string("Unknown conversion specifier ") + conversion);
        out += formatSpec(obj, spec);
    }
    return out;
}

}  // namespace hearth::chat::pyformat
