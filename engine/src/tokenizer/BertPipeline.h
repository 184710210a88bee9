#pragma once
// BERT's text pipeline as normalizer steps and pre-tokenizer stages:
//   clean text  - drop NUL, U+FFFD and control/format characters (keeping TAB, LF, CR), turn
//                 every White_Space character into a space;
//   CJK         - a space on each side of every CJK ideograph (the CJK Unified Ideographs
//                 blocks, their extensions and the compatibility ideographs), so each is a word;
//   accents     - NFD, then drop nonspacing marks (Mn);
//   lowercase   - full Unicode lowercase;
//   split       - on whitespace (dropped) and around each punctuation character (Unicode P*
//                 and all ASCII punctuation, one character per piece).

#include "hearth/result.h"
#include "tokenizer/TokenizerParts.h"

namespace hearth {

class BertPipeline {
public:
    struct Options {
        bool cleanText = true;
        bool chineseChars = true;
        bool stripAccents = true;
        bool lowercase = true;
    };
    static Status configure(TokenizerParts& parts, Options opts);
};

}  // namespace hearth
