def test_it_stores_and_reads_back_a_fact(api):
    r = api.post("/users/u1/facts", {"text": "User is allergic to peanuts.", "category": "health", "key": "allergy"})
    assert r.status_code == 201, r.content
    fact = r.json()
    assert fact["status"] == "active" and fact["confidence"] == 0.4
    r = api.get(f"/facts/{fact['id']}")
    assert r.status_code == 200 and r.json()["text"] == "User is allergic to peanuts."
