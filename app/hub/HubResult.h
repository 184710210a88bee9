#pragma once
// A hub answer: a value or a HubError (errors are values; nothing is thrown).
// Invariant: holds exactly one of the two.
#include <utility>
#include <variant>

#include "hub/HubError.h"

namespace hearth::app {

template <class T>
class HubResult {
public:
    HubResult(T value) : v_(std::in_place_index<0>, std::move(value)) {}
    HubResult(HubError error) : v_(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    const T& value() const { return std::get<0>(v_); }
    T& value() { return std::get<0>(v_); }
    const T* operator->() const { return &value(); }
    const T& operator*() const { return value(); }
    const HubError& error() const { return std::get<1>(v_); }

private:
    std::variant<T, HubError> v_;
};

}  // namespace hearth::app
