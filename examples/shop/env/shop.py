#!/usr/bin/env python3
"""Pebble Shop: a small customer-service environment for Assay (docs/environments.md).

A stdio MCP server, Python's standard library only: one JSON-RPC message per line on standard input and output.
It loads its database (JSON) from --db when it starts, keeps every change in memory (the file is never written), offers
the shop's tools, and serves the whole database as the resource shop://db (JSON text): that is the state Assay
compares at the end of a trial. It ends when its standard input closes.
"""

import argparse
import copy
import json
import sys

STATE_URI = "shop://db"
PROTOCOL = "2025-06-18"


class ToolError(Exception):
    """A refusal the agent sees as the tool's error (isError), the state left as it was."""


class Shop:
    def __init__(self, db):
        self.db = db

    def customer(self, customer_id):
        found = self.db["customers"].get(customer_id)
        if found is None:
            raise ToolError(f"no customer {customer_id}")
        return found

    def order(self, order_id):
        found = self.db["orders"].get(order_id)
        if found is None:
            raise ToolError(f"no order {order_id}")
        return found

    # Reads.

    def find_customer(self, email):
        for customer_id, customer in self.db["customers"].items():
            if customer["email"].lower() == email.lower():
                return {"customer_id": customer_id, **customer}
        raise ToolError(f"no customer with the email {email}")

    def get_customer(self, customer_id):
        return {"customer_id": customer_id, **self.customer(customer_id)}

    def get_order(self, order_id):
        return self.order(order_id)

    def get_product(self, product_id):
        found = self.db["products"].get(product_id)
        if found is None:
            raise ToolError(f"no product {product_id}")
        return {"product_id": product_id, **found}

    # Writes.

    def cancel_order(self, order_id, reason):
        order = self.order(order_id)
        if order["status"] != "pending":
            raise ToolError(f"order {order_id} is {order['status']}; only pending orders can be cancelled")
        if reason not in ("no longer needed", "ordered by mistake"):
            raise ToolError("reason must be 'no longer needed' or 'ordered by mistake'")
        order["status"] = "cancelled"
        order["cancel_reason"] = reason
        self.refund(order, order["total"], order["payment_method_id"])
        return order

    def update_address(self, order_id, address):
        order = self.order(order_id)
        if order["status"] != "pending":
            raise ToolError(f"order {order_id} is {order['status']}; only a pending order's address can change")
        for field in ("street", "city", "zip"):
            if not isinstance(address.get(field), str) or not address[field]:
                raise ToolError(f"address.{field} is required")
        order["address"] = {"street": address["street"], "city": address["city"], "zip": address["zip"]}
        return order

    def return_items(self, order_id, item_ids, payment_method_id):
        order = self.order(order_id)
        if order["status"] != "delivered":
            raise ToolError(f"order {order_id} is {order['status']}; only delivered orders can be returned")
        customer = self.customer(order["customer_id"])
        if payment_method_id not in customer["payment_methods"]:
            raise ToolError(f"{payment_method_id} is not one of the customer's payment methods")
        items = {item["item_id"]: item for item in order["items"]}
        if not item_ids or any(item_id not in items for item_id in item_ids):
            raise ToolError("every item_id must be an item of the order")
        amount = 0
        for item_id in item_ids:
            items[item_id]["status"] = "return_requested"
            amount += items[item_id]["price"]
        order["status"] = "return_requested"
        self.refund(order, amount, payment_method_id)
        return order

    def refund(self, order, amount, payment_method_id):
        method = self.db["customers"][order["customer_id"]]["payment_methods"][payment_method_id]
        if method["kind"] == "gift_card":
            method["balance"] = round(method["balance"] + amount, 2)
        self.db["refunds"].append(
            {"order_id": order["order_id"], "amount": round(amount, 2), "payment_method_id": payment_method_id}
        )

    def transfer_to_human(self, summary):
        self.db["transfers"].append({"summary": summary})
        return "Transferred; a colleague will take over."


def schema(properties, required):
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


STRING = {"type": "string"}
TOOLS = [
    {
        "name": "find_customer",
        "description": "Finds a customer by email address.",
        "inputSchema": schema({"email": STRING}, ["email"]),
    },
    {
        "name": "get_customer",
        "description": "Reads a customer: name, zip, payment methods and order ids.",
        "inputSchema": schema({"customer_id": STRING}, ["customer_id"]),
    },
    {
        "name": "get_order",
        "description": "Reads an order: status, items, total, address, payment method, delivery date.",
        "inputSchema": schema({"order_id": STRING}, ["order_id"]),
    },
    {
        "name": "get_product",
        "description": "Reads a product: name, price, whether it is final sale.",
        "inputSchema": schema({"product_id": STRING}, ["product_id"]),
    },
    {
        "name": "cancel_order",
        "description": "Cancels a pending order and refunds its total to its payment method. "
        "The reason is 'no longer needed' or 'ordered by mistake'.",
        "inputSchema": schema({"order_id": STRING, "reason": STRING}, ["order_id", "reason"]),
    },
    {
        "name": "update_address",
        "description": "Changes the shipping address of a pending order.",
        "inputSchema": schema(
            {
                "order_id": STRING,
                "address": schema({"street": STRING, "city": STRING, "zip": STRING}, ["street", "city", "zip"]),
            },
            ["order_id", "address"],
        ),
    },
    {
        "name": "return_items",
        "description": "Returns items of a delivered order and refunds their price to one of the customer's "
        "payment methods.",
        "inputSchema": schema(
            {"order_id": STRING, "item_ids": {"type": "array", "items": STRING}, "payment_method_id": STRING},
            ["order_id", "item_ids", "payment_method_id"],
        ),
    },
    {
        "name": "transfer_to_human",
        "description": "Hands the conversation to a human colleague, with a summary of the request.",
        "inputSchema": schema({"summary": STRING}, ["summary"]),
    },
]


def answer(request_id, result=None, error=None):
    message = {"jsonrpc": "2.0", "id": request_id}
    if error is not None:
        message["error"] = error
    else:
        message["result"] = result
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def handle(shop, message):
    method = message.get("method")
    params = message.get("params") or {}
    if method == "initialize":
        return {
            "protocolVersion": params.get("protocolVersion", PROTOCOL),
            "capabilities": {"tools": {}, "resources": {}},
            "serverInfo": {"name": "pebble-shop", "version": "1.0"},
        }
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "resources/list":
        return {"resources": [{"uri": STATE_URI, "name": "db", "mimeType": "application/json"}]}
    if method == "resources/read":
        if params.get("uri") != STATE_URI:
            raise LookupError(f"no resource {params.get('uri')}")
        text = json.dumps(shop.db, sort_keys=True)
        return {"contents": [{"uri": STATE_URI, "mimeType": "application/json", "text": text}]}
    if method == "tools/call":
        name = params.get("name")
        if name not in {tool["name"] for tool in TOOLS}:
            raise LookupError(f"no tool {name}")
        try:
            result = getattr(shop, name)(**(params.get("arguments") or {}))
        except ToolError as refusal:
            return {"content": [{"type": "text", "text": str(refusal)}], "isError": True}
        except TypeError as wrong:
            return {"content": [{"type": "text", "text": f"bad arguments: {wrong}"}], "isError": True}
        text = result if isinstance(result, str) else json.dumps(result, sort_keys=True)
        return {"content": [{"type": "text", "text": text}], "isError": False}
    raise NotImplementedError(method)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    # Anything else (a test's marker) is ignored.
    arguments, _ = parser.parse_known_args()
    with open(arguments.db, encoding="utf-8") as file:
        db = json.load(file)
    shop = Shop(copy.deepcopy(db))
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if "id" not in message:
            continue  # a notification (initialized, cancelled): nothing to answer
        try:
            answer(message["id"], handle(shop, message))
        except NotImplementedError as unknown:
            answer(message["id"], error={"code": -32601, "message": f"unknown method {unknown}"})
        except (LookupError, ValueError) as bad:
            answer(message["id"], error={"code": -32602, "message": str(bad)})


if __name__ == "__main__":
    main()
