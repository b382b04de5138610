import FlowrunCore
import OrderedCollections

typealias OrderedDictionaryOfValues = OrderedDictionary<String, Value>
